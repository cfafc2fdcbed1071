/* SPDX-License-Identifier: GPL-2.0 */
/* The C tests in `perf test` order: append only, so numbers stay stable. */
TEST(parse_sample, "Parse every sample_type field")
TEST(reader_replay, "perf.data reader: fuzz corpus, truncations, regressions")
TEST(bad_input, "Corrupt perf.data files give one-line errors")
TEST(deferred_stitch, "Deferred callchains: stitch by tid and cookie")
TEST(deferred_memory, "Deferred callchains: pending-sample memory cap")
