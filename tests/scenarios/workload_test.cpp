// The same seed gives the same workload on every machine and compiler: the
// generator and every distribution are written out, and pinned here.
#include "scenarios/engine/workload.h"

#include <cstring>

#include <catch2/catch.hpp>

#include "pools/core/duration.h"

using namespace poolscope;
using namespace poolscope::scenario;
using namespace std::chrono_literals;

TEST_CASE("random: the generators are the published xoshiro256** and splitmix64") {
  std::uint64_t state = 0;
  CHECK(splitmix64(state) == 16294208416658607535ull);  // splitmix64's first output from 0
  // xoshiro256** from the state {1, 2, 3, 4}: the reference implementation's outputs.
  Rng r(0);
  const std::uint64_t s[4] = {1, 2, 3, 4};
  static_assert(sizeof(Rng) == sizeof s);
  std::memcpy(static_cast<void*>(&r), s, sizeof s);
  CHECK(r.next() == 11520u);
  CHECK(r.next() == 0u);
  CHECK(r.next() == 1509978240u);
  CHECK(r.next() == 1215971899390074240ull);
}

TEST_CASE("random: seeded streams give fixed values") {
  Rng r(42);
  CHECK(r.next() == 1546998764402558742ull);
  CHECK(r.next() == 6990951692964543102ull);
  Rng u(7);
  CHECK(u.uniform() == Approx(0.7005764821796896).epsilon(1e-15));
  CHECK(u.uniform() == Approx(0.27875122947378428).epsilon(1e-15));
  CHECK(derive_seed(1, "arrivals", 0) == 1203520642040756978ull);
  CHECK(derive_seed(1, "arrivals", 1) == 98762283912777210ull);
}

TEST_CASE("distributions: a few samples against fixed expectations") {
  auto first4 = [](const char* text) {
    Distribution d = Distribution::parse(json::parse(text), "/d");
    Rng rng(2024);
    std::vector<std::int64_t> out;
    for (int i = 0; i < 4; ++i) out.push_back(d.sample(rng).count());
    return out;
  };
  // Allow 1 µs for libm's last-bit differences in log/exp/cos between machines.
  auto near = [](std::vector<std::int64_t> got, std::vector<std::int64_t> want) {
    for (std::size_t i = 0; i < want.size(); ++i)
      if (std::llabs(got[i] - want[i]) > 1000) return false;
    return true;
  };
  CHECK(near(first4(R"({"dist":"exponential","mean":"10ms"})"), {28861089, 2457678, 26303264, 18343589}));
  CHECK(near(first4(R"({"dist":"normal","mean":"10ms","stddev":"3ms"})"), {11444041, 13697301, 10069237, 9819866}));
  CHECK(near(first4(R"({"dist":"lognormal","median":"10ms","sigma":0.8})"), {14697282, 26803488, 10186346, 9530999}));
  CHECK(near(first4(R"({"dist":"pareto","scale":"5ms","shape":1.5})"), {34243970, 5890160, 28875366, 16985224}));
  CHECK(first4(R"({"dist":"uniform","min":"5ms","max":"15ms"})") ==
        std::vector<std::int64_t>{5557929, 12821038, 5720549, 6597159});
  // A mix draws its pick, then (only if it needs one) the picked distribution's value.
  CHECK(near(first4(R"({"dist":"mix","of":[{"weight":1,"value":"1ms"},{"weight":1,"value":"2ms"},
                                          {"weight":2,"value":{"dist":"exponential","mean":"10ms"}}]})"),
             {1000000, 26303264, 1000000, 14070191}));
}

TEST_CASE("distributions: sample means approach the stated means") {
  for (const char* text :
       {R"({"dist":"exponential","mean":"10ms"})", R"({"dist":"uniform","min":"0s","max":"20ms"})",
        R"({"dist":"normal","mean":"10ms","stddev":"2ms"})", R"({"dist":"lognormal","median":"10ms","sigma":0.5})",
        R"({"dist":"pareto","scale":"5ms","shape":3})", R"({"dist":"pareto","scale":"5ms","shape":1.2,"max":"100ms"})",
        R"({"dist":"mix","of":[{"weight":3,"value":"1ms"},{"weight":1,"value":"5ms"}]})"}) {
    CAPTURE(text);
    Distribution d = Distribution::parse(json::parse(text), "/d");
    Rng rng(1);
    double sum = 0;
    constexpr int n = 200000;
    for (int i = 0; i < n; ++i) sum += static_cast<double>(d.sample(rng).count());
    CHECK(sum / n == Approx(static_cast<double>(d.mean().count())).epsilon(0.03));
  }
}

TEST_CASE("distributions: a normal is truncated at zero, a pareto at its cap") {
  Distribution n = Distribution::parse(json::parse(R"({"dist":"normal","mean":"1ms","stddev":"5ms"})"), "/d");
  Distribution p = Distribution::parse(json::parse(R"({"dist":"pareto","scale":"1ms","shape":0.5,"max":"3ms"})"), "/d");
  Rng rng(3);
  for (int i = 0; i < 10000; ++i) {
    CHECK(n.sample(rng) >= 0ns);
    Nanos v = p.sample(rng);
    CHECK(v >= 1ms);
    CHECK(v <= 3ms);
  }
}

namespace {
Scenario scenario_with(json arrival, Nanos duration = 10s) {
  json j = {{"name", "w"},
            {"lesson", "workload"},
            {"seed", 5},
            {"task", {{"duration", {{"dist", "exponential"}, {"mean", "10ms"}}}, {"throw_probability", 0.25}}},
            {"phases", {{{"duration", format_duration(duration)}, {"arrival", arrival}}}},
            {"pools", {{{"design", "spawn"}}}}};
  return parse_scenario(j, "w.json", ".");
}
}  // namespace

TEST_CASE("workload: arrival kinds put the expected number of tasks in a phase") {
  CHECK(list_arrivals(scenario_with({{"kind", "constant"}, {"rate", 50}})).size() == 500);
  auto bursts = list_arrivals(scenario_with({{"kind", "burst"}, {"count", 30}, {"every", "2s"}}));
  CHECK(bursts.size() == 150);
  CHECK(bursts[29].at == Time(0));
  CHECK(bursts[30].at == Time(2s));
  CHECK(list_arrivals(scenario_with({{"kind", "burst"}, {"count", 7}})).size() == 7);
  // A ramp from 0 to 100/s over 10 s brings 500 tasks, denser at the end.
  auto ramp = list_arrivals(scenario_with({{"kind", "ramp"}, {"from", 0}, {"to", 100}}));
  CHECK(ramp.size() == 500);
  auto in_second_half =
      std::count_if(ramp.begin(), ramp.end(), [](const ScheduledTask& a) { return a.at >= Time(5s); });
  CHECK(in_second_half == 375);
  auto poisson = list_arrivals(scenario_with({{"kind", "poisson"}, {"rate", 200}}, 100s)).size();
  CHECK(poisson == Approx(20000).epsilon(0.03));
  CHECK(list_arrivals(scenario_with({{"kind", "idle"}})).empty());
  Scenario closed = scenario_with({{"kind", "closed_loop"}, {"clients", 4}, {"think", "100ms"}});
  CHECK(list_arrivals(closed).empty());
  Workload clients = plan_workload(closed);
  REQUIRE(clients.clients.size() == 4);
  CHECK(clients.clients[3].end == Time(10s));
  CHECK(clients.clients[0].seed != clients.clients[1].seed);
}

// The expected values below were computed by an independent transcription
// of random.cpp and workload.cpp (in Python), not by running this code.
TEST_CASE("workload: Poisson and ramp arrival times and closed-loop think times are pinned") {
  auto times = [](const std::vector<ScheduledTask>& arrivals, std::size_t n) {
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < n && i < arrivals.size(); ++i) out.push_back(arrivals[i].at.count());
    return out;
  };
  auto near = [](std::vector<std::int64_t> got, std::vector<std::int64_t> want) {
    if (got.size() != want.size()) return false;
    for (std::size_t i = 0; i < want.size(); ++i)
      if (std::llabs(got[i] - want[i]) > 1000) return false;  // 1 µs for libm's last bits
    return true;
  };
  CHECK(near(times(list_arrivals(scenario_with({{"kind", "poisson"}, {"rate", 100}})), 5),
             {4822249, 41842445, 44026821, 50291320, 55481461}));
  CHECK(near(times(list_arrivals(scenario_with({{"kind", "ramp"}, {"from", 0}, {"to", 100}, {"poisson", true}})), 5),
             {310555950, 914794460, 938369029, 1002908973, 1053389399}));
  // Evenly spaced in expected count: the k-th arrival where rate 10/s² has brought k - 1/2 tasks, sqrt((2k-1)/10) s.
  CHECK(near(times(list_arrivals(scenario_with({{"kind", "ramp"}, {"from", 0}, {"to", 100}})), 3),
             {316227766, 547722557, 707106781}));

  Scenario s =
      scenario_with({{"kind", "closed_loop"}, {"clients", 2}, {"think", {{"dist", "exponential"}, {"mean", "100ms"}}}});
  Workload w = plan_workload(s);
  REQUIRE(w.clients.size() == 2);
  struct Cycle {
    std::int64_t task_ns;
    bool throws;
    std::int64_t think_ns;
  };
  const std::vector<std::vector<Cycle>> want = {
      {{25140317, true, 61101469}, {9898145, false, 42554588}, {1547275, false, 274111766}},
      {{12411885, true, 235907219}, {130802, false, 106913621}, {8531267, false, 331198615}}};
  for (std::size_t c = 0; c < 2; ++c) {
    ClientStream stream(s.phases[w.clients[c].phase], w.clients[c].seed);
    for (std::size_t k = 0; k < want[c].size(); ++k) {
      CAPTURE(c, k);
      TaskInstance t = stream.next_task();
      CHECK(std::llabs(t.duration.count() - want[c][k].task_ns) <= 1000);
      CHECK(t.throws == want[c][k].throws);
      CHECK(std::llabs(stream.next_think().count() - want[c][k].think_ns) <= 1000);
    }
  }
}

TEST_CASE("workload: the same seed gives the same tasks at the same times, another seed does not") {
  Scenario s = scenario_with({{"kind", "poisson"}, {"rate", 100}});
  std::vector<ScheduledTask> a = list_arrivals(s), b = list_arrivals(s);
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].at == b[i].at);
    CHECK(a[i].task.duration == b[i].task.duration);
    CHECK(a[i].task.throws == b[i].task.throws);
  }
  s.seed = 6;
  std::vector<ScheduledTask> c = list_arrivals(s);
  CHECK((c.size() != a.size() || c[0].at != a[0].at));
  // About a quarter throw, as asked.
  auto throws =
      std::count_if(a.begin(), a.end(), [](const ScheduledTask& t) { return t.task.throws; });
  CHECK(static_cast<double>(throws) / static_cast<double>(a.size()) == Approx(0.25).margin(0.05));
}

TEST_CASE("workload: editing one phase leaves the others' tasks alone") {
  json j = {{"name", "w"},
            {"lesson", "w"},
            {"task", {{"duration", {{"dist", "exponential"}, {"mean", "10ms"}}}}},
            {"phases",
             {{{"duration", "1s"}, {"arrival", {{"kind", "poisson"}, {"rate", 50}}}},
              {{"duration", "1s"}, {"arrival", {{"kind", "poisson"}, {"rate", 50}}}}}},
            {"pools", {{{"design", "spawn"}}}}};
  std::vector<ScheduledTask> before = list_arrivals(parse_scenario(j, "w.json", "."));
  j["phases"][0]["arrival"]["rate"] = 80;
  std::vector<ScheduledTask> after = list_arrivals(parse_scenario(j, "w.json", "."));
  auto second = [](const std::vector<ScheduledTask>& arrivals) {
    std::vector<std::pair<Time, Nanos>> out;
    for (const auto& a : arrivals)
      if (a.phase == 1) out.emplace_back(a.at, a.task.duration);
    return out;
  };
  CHECK(second(before) == second(after));
}

TEST_CASE("workload: children are generated with their parent") {
  json j = {
      {"name", "w"},
      {"lesson", "w"},
      {"task", {{"duration", "1ms"}, {"children", {{"count", 3}, {"wait", true}, {"task", {{"duration", "2ms"}}}}}}},
      {"phases", {{{"duration", "1s"}, {"arrival", {{"kind", "burst"}, {"count", 2}}}}}},
      {"pools", {{{"design", "spawn"}}}}};
  std::vector<ScheduledTask> w = list_arrivals(parse_scenario(j, "w.json", "."));
  REQUIRE(w.size() == 2);
  CHECK(w[0].task.wait_children);
  REQUIRE(w[0].task.children.size() == 3);
  CHECK(w[0].task.children[2].duration == 2ms);
}
