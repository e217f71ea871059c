#!/usr/bin/env python3
"""Writes the getDiagnosticData fixtures of dashboards/test/exporter-names/ (run by hand when the
server line changes; the tests only read the .extjson files it writes).

    python3 make-fixtures.py WIREDTIGER_STAT_C     every fixture
    python3 make-fixtures.py --old-lines           the 4.0 and 3.6 lines' only (no 8.0 source needed)

WIREDTIGER_STAT_C is src/support/stat.c of the WiredTiger MongoDB 8.0 vendors (github.com/
wiredtiger/wiredtiger, tag mongodb-8.0.10, the branch mongo r8.0 imports under
src/third_party/wiredtiger): its connection statistics (__stats_connection_desc, "section: name")
are what serverStatus.wiredTiger reports, one sub-document per section (MongoDB splits each
description at the first ": "). Everything else in the documents is written out below, with the
source each part was read in. Values are small made-up numbers: the tests check names, not values.
"""
import json
import re
import sys

WT_TAG = "mongodb-8.0.10"


def wt_connection_stats(stat_c):
    text = open(stat_c, encoding="utf-8").read()
    m = re.search(r"__stats_connection_desc\[\] = \{(.*?)\n\};", text, re.S)
    if not m:
        sys.exit("no __stats_connection_desc in " + stat_c)
    # Adjacent literals are one string (clang-format splits long descriptions).
    body = re.sub(r'"\s*\n\s*"', "", m.group(1))
    descs = re.findall(r'"((?:[^"\\]|\\.)*)"', body)
    sections = {}
    for d in descs:
        section, _, name = d.partition(": ")
        sections.setdefault(section, {})[name] = 0
    return sections


def with_values(wt):
    # A few non-zero values so the document looks like a working member; names are what matter.
    wt["cache"]["bytes currently in the cache"] = 268435456
    wt["cache"]["maximum bytes configured"] = 536870912
    wt["cache"]["tracked dirty bytes in the cache"] = 1048576
    wt["cache"]["pages read into cache"] = 1200
    wt["cache"]["pages written from cache"] = 900
    # WT-11171 (in mongodb-8.0.0): checkpoint state is a phase number, 0 = no checkpoint running
    # (src/include/checkpoint.h WT_CHECKPOINT_STATE_*; src/txn/txn_ckpt.c sets it).
    wt["checkpoint"]["progress state"] = 0
    return wt


def date(ms):
    return {"$date": {"$numberLong": str(ms)}}


NOW = 1767225600000  # 2026-01-01T00:00:00Z

# serverStatus sections the dashboards read, as the 8.0 server reports them. Field names as in the
# MongoDB manual's serverStatus output and the exporter's own testdata
# (percona/mongodb_exporter v0.43.1 exporter/testdata/get_diagnostic_data.json); from 7.0 the
# execution tickets are serverStatus.queues.execution (the exporter maps that path onto
# ss_wt_concurrentTransactions, exporter/metrics.go prefixes, v0.43.1).
def server_status(process, extra):
    ss = {
        "host": "member:27017",
        "version": "8.0.10",
        "process": process,
        "pid": {"$numberLong": "1"},
        "uptime": 3600.0,
        "uptimeMillis": {"$numberLong": "3600000"},
        "uptimeEstimate": {"$numberLong": "3600"},
        "localTime": date(NOW),
        "connections": {"current": 12, "available": 838848, "totalCreated": 40, "active": 3},
        "opcounters": {"insert": 1000, "query": 200, "update": 300, "delete": 10, "getmore": 50, "command": 5000},
        "mem": {"bits": 64, "resident": 400, "virtual": 2600, "supported": True},
    }
    ss.update(extra)
    return ss


MONGOD_EXTRA = {
    "globalLock": {
        "totalTime": {"$numberLong": "3600000000"},
        "currentQueue": {"total": 0, "readers": 0, "writers": 0},
        "activeClients": {"total": 0, "readers": 0, "writers": 0},
    },
    "opcountersRepl": {"insert": 0, "query": 0, "update": 0, "delete": 0, "getmore": 0, "command": 0},
    "flowControl": {
        "enabled": True, "targetRateLimit": 1000000000, "timeAcquiringMicros": {"$numberLong": "100"},
        "locksPerKiloOp": 0.0, "sustainerRate": 0, "isLagged": False, "isLaggedCount": 0,
        "isLaggedTimeMicros": {"$numberLong": "0"},
    },
    "metrics": {"document": {"deleted": 10, "inserted": 1000, "returned": 200, "updated": 300}},
    "queues": {"execution": {
        "write": {"out": 1, "available": 127, "totalTickets": 128},
        "read": {"out": 0, "available": 128, "totalTickets": 128},
    }},
}


def repl_set_get_status(set_name, me):
    members = []
    for i, (host, state, state_str) in enumerate([(f"{set_name}-a:27017", 1, "PRIMARY"),
                                                   (f"{set_name}-b:27017", 2, "SECONDARY"),
                                                   (f"{set_name}-c:27017", 2, "SECONDARY")]):
        members.append({
            "_id": i, "name": host, "health": 1.0, "state": state, "stateStr": state_str,
            "uptime": 3600,
            "optime": {"ts": {"$timestamp": {"t": NOW // 1000, "i": 1}}, "t": {"$numberLong": "1"}},
            "optimeDate": date(NOW - 1000 * i),
            "optimeDurableDate": date(NOW - 1000 * i),
            "lastHeartbeat": date(NOW), "lastHeartbeatRecv": date(NOW),
            "pingMs": {"$numberLong": "0"}, "configVersion": 1, "configTerm": 1,
        })
    return {"set": set_name, "date": date(NOW), "myState": 1 if me == 0 else 2,
            "term": {"$numberLong": "1"}, "members": members, "ok": 1.0}


# From 7.0 FTDC collects the oplog's stats with $collStats storageStats, so size and maxSize sit
# under storageStats (the exporter's diagnostic_data_collector_test.go, v0.43.1, expects the
# prefix local.oplog.rs.stats.storageStats for servers >= 7).
def oplog_stats(engine_section):
    return {"ns": "local.oplog.rs", "host": "member:27017", "localTime": date(NOW),
            "storageStats": {"size": 104857600, "count": 100000, "avgObjSize": 1048,
                             "storageSize": 52428800, "freeStorageSize": 0, "capped": True,
                             "max": {"$numberLong": "0"}, "maxSize": {"$numberLong": "1073741824"},
                             "nindexes": 0, "totalIndexSize": 0, "totalSize": 52428800,
                             engine_section: {"cache": {"bytes currently in the cache": 1024}}}}


# MongoDB 8.0's FTDC "multi-service" schema: one sub-document per role (mongo
# src/mongo/db/ftdc/collector.cpp: roles "shard", "router", "common", each with its own
# start/end). The exporter merges those blocks before naming when "common" is present
# (exporter/diagnostic_data_collector.go, v0.43.1: "MongoDB 8.0 splits the diagnostic data into
# multiple blocks"), so the names are the same in either schema.
def ftdc(common, role, role_doc):
    return {"data": {"start": date(NOW), "common": dict(start=date(NOW), **common, end=date(NOW)),
                     role: dict(start=date(NOW), **role_doc, end=date(NOW)), "end": date(NOW)},
            "ok": 1.0}


# The lines before 8.0 the lab runs: MMAPv1 on 4.0 and MongoRocks on 3.6, whose config servers run
# WiredTiger 4.0 / 3.6. getDiagnosticData there is one flat document (no per-role blocks:
# ftdc_mongod.cpp of 3.6/4.0 registers serverStatus, replSetGetStatus and the collStats of
# oplog.rs as "local.oplog.rs.stats", size and maxSize at its top level). The WiredTiger names the
# panels read are written out as that WiredTiger reports them (the exporter's own 4.x testdata,
# percona/mongodb_exporter v0.43.1 exporter/testdata/get_diagnostic_data.json: cache, txn
# "transaction checkpoint currently running", concurrentTransactions); the checkpoint section's
# "progress state" is 8.0's (WT-11171) and absent here.
OLD_WT = {
    "cache": {"bytes currently in the cache": 268435456, "maximum bytes configured": 536870912,
              "tracked dirty bytes in the cache": 1048576, "pages read into cache": 1200,
              "pages written from cache": 900, "modified pages evicted": 10, "unmodified pages evicted": 20},
    "transaction": {"transaction checkpoint currently running": 0, "transaction checkpoints": 60},
    "concurrentTransactions": {"write": {"out": 1, "available": 127, "totalTickets": 128},
                               "read": {"out": 0, "available": 128, "totalTickets": 128}},
}


def old_oplog_stats():
    return {"ns": "local.oplog.rs", "size": 104857600, "count": 100000, "avgObjSize": 1048,
            "storageSize": 52428800, "capped": True, "max": {"$numberLong": "-1"},
            "maxSize": {"$numberLong": "1073741824"}, "nindexes": 0, "totalIndexSize": 0, "ok": 1.0}


def old_line(version, engine, extra):
    ss = server_status("mongod", dict(MONGOD_EXTRA, storageEngine={"name": engine}, **extra))
    ss["version"] = version
    del ss["queues"]  # queues.execution is 7.0's
    del ss["flowControl"]  # flow control is 4.2's
    return {"data": {"start": date(NOW), "serverStatus": ss, "replSetGetStatus": repl_set_get_status("shard01", 0),
                     "local.oplog.rs.stats": old_oplog_stats(), "end": date(NOW)}, "ok": 1.0}


OLD_LINES = {
    "mongod-wiredtiger-4.0": old_line("4.0.28", "wiredTiger", {"wiredTiger": OLD_WT}),
    "mongod-wiredtiger-3.6": old_line("3.6.23", "wiredTiger", {"wiredTiger": OLD_WT}),
    "mongod-mmapv1-4.0": old_line("4.0.28", "mmapv1", {}),
    "mongod-rocksdb-3.6": old_line("3.6.23", "rocksdb", {}),
}


def write(name, doc, source):
    doc = {"_comment": source, **doc}
    with open(f"{name}.extjson", "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")


def write_old_lines():
    for name, doc in OLD_LINES.items():
        write(name, doc, "Written by make-fixtures.py (OLD_LINES: the 4.0 and 3.6 lines, sources named there); "
              "read by zz_lab_names_test.go.")


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--old-lines":
        write_old_lines()
        return
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    wt = with_values(wt_connection_stats(sys.argv[1]))
    inmem = with_values(wt_connection_stats(sys.argv[1]))
    source = (f"Written by make-fixtures.py from WiredTiger {WT_TAG} src/support/stat.c (connection "
              "statistics) and the sources named in make-fixtures.py; read by zz_lab_names_test.go.")
    docs = {
        "mongod-wiredtiger-8.0": ftdc(
            {"serverStatus": server_status("mongod", dict(MONGOD_EXTRA, storageEngine={"name": "wiredTiger"}, wiredTiger=wt))},
            "shard", {"replSetGetStatus": repl_set_get_status("shard01", 0),
                      "local.oplog.rs.stats": oplog_stats("wiredTiger")}),
        # Percona Server for MongoDB's inMemory engine is a WiredTiger configuration; it reports
        # its statistics under serverStatus.inMemory with WiredTiger's names (../shared/reference/
        # monitoring.md; only ./run.sh smoke proves the section on a running server).
        "mongod-inmemory-8.0": ftdc(
            {"serverStatus": server_status("mongod", dict(MONGOD_EXTRA, storageEngine={"name": "inMemory"}, inMemory=inmem))},
            "shard", {"replSetGetStatus": repl_set_get_status("shard01", 1),
                      "local.oplog.rs.stats": oplog_stats("inMemory")}),
        # A router: no storage engine, no replication sections (docs: FTDC on mongos collects
        # serverStatus and connPoolStats, no replSetGetStatus or oplog stats).
        "mongos-8.0": ftdc(
            {"serverStatus": server_status("mongos", {})},
            "router", {"connPoolStats": {"numClientConnections": 0, "totalInUse": 0, "totalAvailable": 4}}),
    }
    for name, doc in docs.items():
        write(name, doc, source)
    write_old_lines()


if __name__ == "__main__":
    main()
