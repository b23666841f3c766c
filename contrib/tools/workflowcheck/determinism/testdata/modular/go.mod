module example.com/modular

go 1.26

require github.com/durable-go/sdk v0.0.0

replace github.com/durable-go/sdk => ../src/github.com/durable-go/sdk
