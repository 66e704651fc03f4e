// The designs a per-design test runs on: every registered one (lab pools
// included), or those $POOLSCOPE_DESIGNS names (comma-separated), e.g. the
// one pool `scripts/lab NN --pool NAME` grades.
#pragma once

#include <string>
#include <vector>

namespace poolscope::test {
std::vector<std::string> designs();
}
