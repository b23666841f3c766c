module github.com/durable-go/sdk

go 1.26
