'use strict';
// Which write concerns the topology a run reached can honour: the writeconcern
// experiment records a case this topology cannot satisfy as not applicable, with the reason, and
// never runs it, whatever the server would answer (a test server that ignores w would otherwise
// report w:3 on a standalone as measured).
//
// What MongoDB documents and does, per case (manual "Write Concern" reference and "Write Concern
// for Replica Sets", MongoDB 8.0; server source as cited):
//   - w > 1 on a standalone: refused, BadValue "cannot use 'w' > 1 when a host is not replicated"
//     (mongodb/mongo src/mongo/db/write_concern.cpp validateWriteConcern, r8.0 and r4.0 alike).
//   - w: "majority" on a standalone: accepted and acknowledged by the one server, as w:1 is
//     (validateWriteConcern refuses only non-majority modes without a replica set; the manual's
//     "Acknowledgment Behavior" table gives a standalone's majority the same acknowledgment as w:1):
//     there is no majority of anything to wait for, so the case would measure w:1 again.
//   - w: N above the replica set's data-bearing members: "The specified write concern value cannot
//     be greater than the total number of data-bearing members in the replica set" (manual "Write
//     Concern for Replica Sets", 8.0); the server executes the write and answers
//     UnsatisfiableWriteConcern (repl_set_config.cpp checkIfWriteConcernCanBeSatisfied,
//     getNumDataBearingMembers: every member but arbiters, hidden and delayed included).
//   - through mongos, w applies on each shard's replica set (manual "Write Concern": mongos passes
//     the write concern to the shards): N above the smallest shard's members.
//   - j: true where the engine keeps no journal: refused, BadValue "cannot use 'j' option when a host
//     does not have journaling enabled" (write_concern.cpp validateWriteConcern: 8.0 isEphemeral(),
//     4.0 !isDurable(); Percona's inMemory engine is ephemeral).

const MANUAL_WC = 'manual "Write Concern", MongoDB 8.0';
const MANUAL_RS_WC = 'manual "Write Concern for Replica Sets", MongoDB 8.0';

// dataBearing(client, topology): how many members take a w:N write, and where that was read.
//   replica set: replSetGetConfig's members that are not arbiters (hidden and delayed count, as the
//                server counts them); where it is refused (no privilege), hello's hosts + passives,
//                which omit hidden and delayed members: a lower bound only.
//   mongos:      the smallest shard's member list (listShards, describe.js).
//   standalone:  1.
// -> { kind, members, arbiters?, exact, source }
async function dataBearing(client, topology = {}) {
  const kind = topology.kind;
  if (kind === 'standalone') return { kind, members: 1, exact: true, source: 'hello: not a replica set member' };
  if (kind === 'replica_set_member') {
    try {
      const { config } = await client.db('admin').command({ replSetGetConfig: 1 });
      const data = config.members.filter((m) => !m.arbiterOnly).length;
      return { kind, members: data, arbiters: config.members.length - data, exact: true, source: 'replSetGetConfig: members that are not arbiters' };
    } catch (e) {
      const listed = (topology.hosts || []).length + (topology.passives || []).length;
      return {
        kind, members: listed, arbiters: (topology.arbiters || []).length, exact: false,
        source: `hello hosts + passives (replSetGetConfig refused: ${e.codeName || e.name}; hidden and delayed members are not listed, so this is a lower bound)`,
      };
    }
  }
  if (kind === 'mongos' && Array.isArray(topology.shards) && topology.shards.length) {
    const counts = topology.shards.map((s) => String(s.host).replace(/^[^/]*\//, '').split(',').length);
    return { kind, members: Math.min(...counts), exact: false, source: `listShards: the smallest shard lists ${Math.min(...counts)} member(s) (w applies on each shard)` };
  }
  return { kind: kind ?? 'unknown', members: null, exact: false, source: 'not known (hello or listShards did not say)' };
}

// notApplicable({w, j}, members, journal) -> the reason this topology cannot satisfy the write
// concern, or null (run it). journal: journalFacts' value (true, false, or null: not known).
function notApplicable(wc, members, journal) {
  if (wc.j && journal === false) {
    return `j:true asks for the on-disk journal and this engine keeps none; MongoDB refuses it (BadValue, src/mongo/db/write_concern.cpp validateWriteConcern; ${MANUAL_WC}, j option)`;
  }
  if (wc.w === 0) return null;
  if (members.kind === 'standalone') {
    if (typeof wc.w === 'number' && wc.w > 1) {
      return `w:${wc.w} on a standalone: there is no replica set to acknowledge it; MongoDB refuses w > 1 when a host is not replicated (BadValue, src/mongo/db/write_concern.cpp validateWriteConcern; ${MANUAL_WC}, w: <number>)`;
    }
    if (wc.w === 'majority') {
      return `majority on a standalone: MongoDB accepts it and the one server acknowledges it as it does w:1 (src/mongo/db/write_concern.cpp validateWriteConcern; ${MANUAL_WC}, Acknowledgment Behavior), so the case would measure w:1 again`;
    }
    return null;
  }
  if (typeof wc.w === 'number' && members.members !== null && members.exact && wc.w > members.members) {
    const where = members.kind === 'mongos' ? 'the smallest shard has' : 'the replica set has';
    return `w:${wc.w} is more than the ${members.members} data-bearing member(s) ${where} (${members.source}); ${MANUAL_RS_WC}: the value cannot be greater than the data-bearing members; the server answers UnsatisfiableWriteConcern (src/mongo/db/repl/repl_set_config.cpp checkIfWriteConcernCanBeSatisfied)`;
  }
  return null;
}

module.exports = { dataBearing, notApplicable };
