-- poolbench schema. The only schema: embedded in the binary at build time
-- and applied by pb_db_open() when PRAGMA user_version is behind.
-- v_result is a public contract (docs/model.md, "The contract"); tables
-- may grow.

CREATE TABLE source (
    id           INTEGER PRIMARY KEY,
    sha256       TEXT NOT NULL UNIQUE,   -- identity: same bytes, same source
    path         TEXT NOT NULL,          -- as given on the command line
    format       TEXT NOT NULL,          -- parser name: fio-json, ...
    tool_version TEXT,                   -- "fio-3.33"
    size         INTEGER NOT NULL,       -- bytes
    ingested_at  TEXT NOT NULL           -- UTC, ISO 8601
);

CREATE TABLE host (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);

-- A configuration under test. The same label with other dimensions is
-- another configuration: `signature` is the sorted key=value list.
CREATE TABLE config (
    id        INTEGER PRIMARY KEY,
    label     TEXT NOT NULL,
    signature TEXT NOT NULL,
    UNIQUE (label, signature)
);

-- Its dimensions: its sources' own ones plus those attached to its label
-- (docs/model.md, "Configurations: identity, attached dimensions, order").
CREATE TABLE config_param (
    config_id INTEGER NOT NULL REFERENCES config(id),
    key       TEXT NOT NULL,
    value     TEXT NOT NULL,
    origin    TEXT,                     -- "KIND: DETAIL"; NULL = parser
    PRIMARY KEY (config_id, key)
) WITHOUT ROWID;

-- A configuration as its sources state it (parser, commands, label rules,
-- --set), before the dimensions attached to its label. Several may map to
-- one config; results keep theirs (result.own_id) so that configs can be
-- re-keyed when attached dimensions come or go.
CREATE TABLE config_own (
    id        INTEGER PRIMARY KEY,
    label     TEXT NOT NULL,
    signature TEXT NOT NULL,            -- sorted key=value and origins
    config_id INTEGER NOT NULL REFERENCES config(id),
    UNIQUE (label, signature)
);
CREATE TABLE config_own_param (
    own_id INTEGER NOT NULL REFERENCES config_own(id),
    key    TEXT NOT NULL,
    value  TEXT NOT NULL,
    origin TEXT,
    PRIMARY KEY (own_id, key)
) WITHOUT ROWID;

-- Dimensions attached to every configuration with a label, by a
-- configuration sheet (ingest --configs) or a companion ZFS output
-- (ingest --label X zpool-status.txt). Taken back with their source.
CREATE TABLE label_param (
    label     TEXT NOT NULL,
    key       TEXT NOT NULL,
    value     TEXT NOT NULL,
    origin    TEXT NOT NULL,            -- "sheet: PATH:LINE", "companion: PATH"
    source_id INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE
);
CREATE INDEX label_param_by_label ON label_param(label);
CREATE INDEX label_param_by_source ON label_param(source_id);

-- Bumped whenever configs are re-keyed, so that other connections drop
-- the config ids they cached.
CREATE TABLE model_generation (n INTEGER NOT NULL);
INSERT INTO model_generation VALUES (0);

CREATE TABLE test (
    id        INTEGER PRIMARY KEY,
    tool      TEXT NOT NULL,
    name      TEXT NOT NULL,
    signature TEXT NOT NULL,
    UNIQUE (tool, name, signature)
);

CREATE TABLE test_param (
    test_id INTEGER NOT NULL REFERENCES test(id),
    key     TEXT NOT NULL,
    value   TEXT NOT NULL,
    PRIMARY KEY (test_id, key)
) WITHOUT ROWID;

CREATE TABLE metric (
    id        INTEGER PRIMARY KEY,
    name      TEXT NOT NULL,
    unit      TEXT NOT NULL,             -- canonical: B/s, ops/s, ns, B, %
    direction TEXT NOT NULL CHECK (direction IN ('higher', 'lower')),
    UNIQUE (name, unit, direction)
);

-- Job names (fio's jobname) and the reasons a value is missing ("+++++
-- (too fast to measure)"), schema v7: results name theirs by id, not as
-- text in every row (a job name was 70 of the ~104 bytes of a result row
-- of fio nightlies, a reason 27 bytes of half the rows of bonnie++ CSVs;
-- docs/model.md, "Database size").
CREATE TABLE job (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
CREATE TABLE reason (
    id   INTEGER PRIMARY KEY,
    text TEXT NOT NULL UNIQUE
);

CREATE TABLE result (
    id          INTEGER PRIMARY KEY,
    source_id   INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,
    host_id     INTEGER REFERENCES host(id),
    config_id   INTEGER NOT NULL REFERENCES config(id),
    test_id     INTEGER NOT NULL REFERENCES test(id),
    job_id      INTEGER REFERENCES job(id), -- NULL: no job name
    metric_id   INTEGER NOT NULL REFERENCES metric(id),
    value       REAL,                    -- NULL: see reason_id
    reason_id   INTEGER REFERENCES reason(id), -- why value is NULL
    stderr      REAL,
    samples     INTEGER,
    own_id      INTEGER REFERENCES config_own(id) -- config as the source said
);
-- One secondary index only: it grows by appending (source ids only rise),
-- while an index on (test_id, metric_id) took 60% of the time of storing
-- a result and saved the report nothing (it sorts on more columns).
CREATE INDEX result_by_source ON result(source_id);

-- Per-repeat values behind a result (PTS RawString, bonnie++ -x rows, the
-- repeats of a run-module cell, several sources of one setup): the result
-- row keeps the summary (value = mean, stderr, samples = n); its samples,
-- when the input has them, are here in input order (seq from 0). v_result
-- is unchanged; readers that need the distribution (compare's
-- Mann-Whitney U test, outlier flags) join on result_id.
CREATE TABLE sample (
    result_id INTEGER NOT NULL REFERENCES result(id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    value     REAL NOT NULL,
    PRIMARY KEY (result_id, seq)
) WITHOUT ROWID;

-- Latency distributions behind a result (fio json+ "bins"; schema v5):
-- one row per direction and latency kind of a job, tied to the result of
-- its median (metric "<dir>_<kind>_p50"), so that it follows that
-- result's config, test, host and job (re-keying included) and goes with
-- its source. bins holds `nbins` pairs of unsigned LEB128 varints, in
-- ascending value order: the bucket value in ns minus the previous one
-- (the first: the value itself), then its count (> 0). The value is the
-- one fio printed for the bucket (plat_idx_to_val: the middle of the
-- bucket); see docs/formats.md, "Latency distributions from json+".
CREATE TABLE latency_hist (
    result_id INTEGER PRIMARY KEY REFERENCES result(id) ON DELETE CASCADE,
    kind      TEXT NOT NULL,             -- "read_clat", "write_lat", ...
    total     INTEGER NOT NULL,          -- sum of the counts (I/Os)
    nbins     INTEGER NOT NULL,
    bins      BLOB NOT NULL
);

-- Time series from fio logs (docs/formats.md, "fio logs: time series").
-- A series hangs off its summary result NAME_log_mean (result_id), whose
-- source, config, test, host and job it shares, so that re-keying,
-- relabelling and forgetting a source carry it along. kind: 'avg' or
-- 'max' (a log with log_avg_msec > 0, points as logged), 'io' (a per-I/O
-- log in fixed buckets of width_ms), 'hist' (a histogram log, one point a
-- line).
CREATE TABLE series (
    id        INTEGER PRIMARY KEY,
    result_id INTEGER NOT NULL REFERENCES result(id) ON DELETE CASCADE,
    name      TEXT NOT NULL,             -- read_bw, write_clat, read_clat_hist
    unit      TEXT NOT NULL,             -- B/s, ops/s, ns
    kind      TEXT NOT NULL,
    width_ms  INTEGER                    -- bucket or log interval; NULL unknown
);
CREATE INDEX series_by_result ON series(result_id);
-- Its points in time order (seq from 0); t_ms since the job started (a
-- bucket's end); n, min, max and percentiles where known (NULL else).
CREATE TABLE series_point (
    series_id INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    t_ms      INTEGER NOT NULL,
    value     REAL,
    n         INTEGER,
    min       REAL,
    max       REAL,
    p50       REAL,
    p90       REAL,
    p95       REAL,
    p99       REAL,
    p999      REAL,                      -- p99.9 (schema 8), from 1,000 I/Os
    PRIMARY KEY (series_id, seq)
) WITHOUT ROWID;

-- Facts about a source or a host: CPU, kernel, ZFS version, tool version.
CREATE TABLE fact (
    source_id INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,
    host      TEXT,
    key       TEXT NOT NULL,
    value     TEXT
);
CREATE INDEX fact_by_source ON fact(source_id);

CREATE VIEW v_result AS
SELECT s.path      AS source_path,
       s.format    AS format,
       h.name      AS host,
       c.label     AS config,
       t.name      AS test,
       t.tool      AS tool,
       j.name      AS job,
       m.name      AS metric,
       r.value     AS value,
       m.unit      AS unit,
       m.direction AS direction,
       r.stderr    AS stderr,
       r.samples   AS samples
FROM result r
JOIN source s ON s.id = r.source_id
LEFT JOIN host h ON h.id = r.host_id
JOIN config c ON c.id = r.config_id
JOIN test t ON t.id = r.test_id
LEFT JOIN job j ON j.id = r.job_id
JOIN metric m ON m.id = r.metric_id;
