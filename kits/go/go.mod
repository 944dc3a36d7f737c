module guinote-kit

go 1.19
