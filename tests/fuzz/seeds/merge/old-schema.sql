INSERT INTO source VALUES (1, 'aa', 'x.json', 'fio-json', NULL, 1, '2026-01-01T00:00:00Z');
INSERT INTO config VALUES (1, 'zfs 8k', 'recordsize=8192');
INSERT INTO config_param VALUES (1, 'recordsize', '8192', NULL);
INSERT INTO test VALUES (1, 'fio', 'fio read bs=4k', '');
INSERT INTO metric VALUES (1, 'read_iops', 'ops/s', 'higher');
INSERT INTO result VALUES (1, 1, NULL, 1, 1, NULL, 1, 5.5, NULL, NULL, NULL, NULL);
DROP TABLE sample;
DROP TABLE latency_hist;
PRAGMA user_version = 3;
