// A small pg_dump text file with COPY escapes, NULL and a bad row: read by the pg_dump reader's tests
// (tests/ingest/pg_dump_test.cc) and built into a lake by CMDBench's source tests.
#pragma once

namespace lakeqa::ingest::testing {

inline constexpr const char* kSql =
    "--\n-- PostgreSQL database dump\n--\n\nCREATE TABLE nba_wikisql.t_1_1_1 (\n    player text,\n    "
    "\"no.\" text\n);\n\n"
    "COPY nba_wikisql.t_1_1_1 (player, \"no.\") FROM stdin;\n"
    "Quincy Acy\t4\n"
    "O'Neal, \"Shaq\"\t\\N\n"
    "Tab\\tName\tline\\nbreak\n"
    "only one field\n"
    "\\.\n\n"
    "COPY nba_wikisql.t_2_2_2 (\"Weird \"\"col\"\"\", b) FROM stdin;\n"
    "x\ty\n"
    "\\.\n";

}  // namespace lakeqa::ingest::testing
