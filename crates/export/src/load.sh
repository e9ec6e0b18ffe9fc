#!/bin/sh
# Loads this folder, written by `qipu export --clickhouse`, into ClickHouse.
#
#   ./load.sh                                   # one server on localhost
#   QIPU_HOSTS='ch1 ch2 ch3' QIPU_CLUSTER=go ./load.sh
#
# QIPU_HOSTS: the servers (default localhost); the tables of schema.sql are made on each.
# QIPU_CLUSTER: the cluster of the servers' `remote_servers` that the Distributed tables span
#   (default `default`, which a stock server defines as itself alone).
# CLICKHOUSE_CLIENT: the client command (default clickhouse-client; `clickhouse client` works).
# The rows go in through the Distributed tables of the first host, which send each row to its
# shard; the small symmetries table goes whole to every host. Run it once per export: loading
# the same files again counts their games twice.
set -eu
cd "$(dirname "$0")"
hosts=${QIPU_HOSTS:-localhost}
cluster=${QIPU_CLUSTER:-default}
client=${CLICKHOUSE_CLIENT:-clickhouse-client}
for host in $hosts; do
    sed "s/{{cluster}}/$cluster/g" schema.sql | $client --host "$host" --multiquery
    $client --host "$host" --query 'INSERT INTO qipu.symmetries FORMAT Parquet' < symmetries.parquet
done
first=${hosts%% *}
for table in games stats; do
    $client --host "$first" --distributed_foreground_insert=1 \
        --query "INSERT INTO qipu.$table FORMAT Parquet" < "$table.parquet"
done
echo "loaded $(pwd) into cluster $cluster ($hosts)"
