// RUN: tile-opt %s --allow-unregistered-dialect -split-input-file -verify-diagnostics

// Limits of #tile.config (the fuzzer's extreme values through the sanitizer
// build): the cost model multiplied the stages by a stage's shared-memory
// bytes, which overflowed 64 bits for stages = 2^62 (in tile-configure).

// expected-error @+1 {{invalid #tile.config: stages (4611686018427387904) is over the limit 64}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 4611686018427387904>} : () -> ()

// -----

// expected-error @+1 {{invalid #tile.config: stages (65) is over the limit 64}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 65>} : () -> ()

// -----

// 64 stages is a valid config (that no chip's shared memory holds).
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 64>} : () -> ()
