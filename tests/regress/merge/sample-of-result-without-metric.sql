INSERT INTO source VALUES (1, 'aa', 'x.json', 'fio-json', NULL, 1, '2026-01-01T00:00:00Z');
INSERT INTO config VALUES (1, '<b>x</b>', '');
INSERT INTO result VALUES (1, 1, 1, 1, 1, 'job', 1, 5.5, NULL, 0.1, 3, 1);
INSERT INTO sample VALUES (1, 0, 5), (1, 1, 6), (1, 2, 5.5);
INSERT INTO fact VALUES (1, NULL, 'hostname', 'h1');
INSERT INTO label_param VALUES ('<b>x</b>', 'layout', 'mirror', 'sheet: s.csv:2', 1);
INSERT INTO source VALUES (2, 'bb', 'y.json', 'fio-json', NULL, 1, '2026-01-01T00:00:00Z');
INSERT INTO result VALUES (2, 2, NULL, 7, 9, NULL, 4, NULL, 'x', NULL, NULL, 99);
