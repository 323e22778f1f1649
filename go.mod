module github.com/rlm-go/rlm

go 1.26
