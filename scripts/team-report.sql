-- The team report: DuckDB over a folder of seamguard audit logs and replay outputs.
--
-- Layout: one folder per person under the current folder, holding that person's audit logs
-- (audit.jsonl, audit.1.jsonl, … copied from each machine's state folder) and the output of
-- `seamguard replay … --format jsonl` (any *.jsonl name), in sub-folders or not:
--
--   team/ana/audit.jsonl   team/ana/laptop2/audit.jsonl   team/ben/replay.jsonl
--
-- Run from that folder: `cd team && duckdb -c ".read ../scripts/team-report.sql"` (the DuckDB
-- shell prints each report), or `python3 scripts/team-report.py team`. The records follow
-- schema/audit-record.v1.schema.json and schema/replay-line.v1.schema.json; every field is
-- read as JSON text, so any record shape seamguard writes loads.
--
-- A *decision* is a judged call: an audit log's `hook/result` of an evaluation (not a
-- command hook's result, not a refused payload) or a replay `event` line. A *pre-tool call*
-- is a decision on a tool call before it runs. An *interruption* is a pre-tool call stopped
-- in front of the person: an ask shown, or a deny (defer included); an ask an approval or a
-- grant let through is not one.

CREATE OR REPLACE TEMP VIEW records AS
SELECT split_part(filename, '/', 1) AS person, json AS r
FROM read_json_objects('*/**/*.jsonl', format = 'newline_delimited', filename = true);

CREATE OR REPLACE TEMP VIEW decisions AS
SELECT
    person,
    'audit' AS source,
    r ->> 'dialect' AS host,
    r ->> 'session_id' AS session,
    r ->> 'decision' AS verdict,
    CAST(r -> 'rules' AS VARCHAR[]) AS rules,
    lower(r ->> 'event') IN ('pretooluse', 'beforetool', 'beforeshellexecution',
                             'beforemcpexecution', 'beforereadfile') AS pre_tool,
    (r -> 'grant') IS NOT NULL OR (r -> 'approval') IS NOT NULL AS approved,
    CAST(coalesce(r -> 'concerns', '[]') AS JSON[]) AS concerns
FROM records
WHERE r ->> 'type' = 'hook/result'
  AND (r -> 'decision') IS NOT NULL
  AND coalesce(CAST(r -> 'refused' AS BOOLEAN), false) = false
UNION ALL
SELECT
    person,
    'replay',
    r ->> 'dialect',
    r ->> 'file',
    r ->> 'verdict',
    CAST(r -> 'rules' AS VARCHAR[]),
    r ->> 'seam' = 'pre-tool',
    (r -> 'approved_by') IS NOT NULL,
    CAST([] AS JSON[])
FROM records
WHERE r ->> 'type' = 'event';

-- ## Asks per rule
-- Asks shown to a person, per rule that asked (an ask several rules raised counts for each).
SELECT rule, count(*) AS asks, count(DISTINCT person) AS people
FROM (SELECT person, unnest(rules) AS rule FROM decisions WHERE verdict = 'ask')
GROUP BY rule
ORDER BY asks DESC, rule;

-- ## Approvals per concern
-- Calls an approval (the person said yes earlier in the session) or a grant (`seamguard
-- allow`) let through without asking, per concern: the rule and what it was about (the ten
-- most approved). Replay outputs name the rule only (`approved_by` points at the ask that was
-- answered): their object is `(replay)`.
SELECT rule, object, count(*) AS approvals, count(DISTINCT person) AS people
FROM (
    SELECT person, c ->> 'rule' AS rule,
           substr(c ->> 'said', length(c ->> 'rule') + 5) AS object
    FROM (SELECT person, unnest(concerns) AS c
          FROM decisions WHERE approved AND source = 'audit')
    UNION ALL
    SELECT person, unnest(rules), '(replay)'
    FROM decisions WHERE approved AND source = 'replay'
)
GROUP BY rule, object
ORDER BY approvals DESC, rule, object
LIMIT 10;

-- ## Denies per host
-- Calls denied, deferred or blocked, per agent (the dialect of the record), out of all its
-- decisions.
SELECT
    host,
    count(*) FILTER (WHERE verdict IN ('deny', 'defer', 'block')) AS denies,
    count(*) AS decisions
FROM decisions
GROUP BY host
ORDER BY denies DESC, host;

-- ## Interruptions per 1,000 calls per person
-- Asks shown plus denies on pre-tool calls, per 1,000 pre-tool calls.
SELECT
    person,
    count(*) AS calls,
    count(*) FILTER (WHERE verdict = 'ask') AS asks,
    count(*) FILTER (WHERE verdict IN ('deny', 'defer')) AS denies,
    round(1000.0 * count(*) FILTER (WHERE verdict IN ('ask', 'deny', 'defer'))
          / count(*), 1) AS per_1000
FROM decisions
WHERE pre_tool
GROUP BY person
ORDER BY person;
