// What the fuzz targets (scenarios/fuzz/, scripts/fuzz) feed their input
// to, shared with the regression test that runs every saved input in the
// normal build (tests/reliability/fuzz_corpus_test.cpp). Each returns
// normally for any input, valid or not: a bad input is a ConfigError,
// caught here; anything else escaping (another exception, a crash, a
// sanitizer report) is a bug.
#pragma once

#include <string_view>

namespace poolscope::scenario::fuzz {

void scenario(std::string_view bytes);     // the scenario parser, then the workload count
void duration(std::string_view bytes);     // the checked duration parser
void result(std::string_view bytes);       // the result reader
void arrival_csv(std::string_view bytes);  // the replay CSV reader

// By target name ("scenario", "duration", "result", "arrival_csv"); false if unknown.
bool run(std::string_view target, std::string_view bytes);

}  // namespace poolscope::scenario::fuzz
