// Command replay is a program: it may link anything.
package main

import "example.com/kinds/replay"

func main() { replay.Main() }
