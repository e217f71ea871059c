module lab/mongodb-exporter

go 1.22
