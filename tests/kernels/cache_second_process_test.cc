// A second process compiles nothing the first one compiled: runs cache_probe repeatedly on one
// VKA_CACHE_DIR, and concurrently, and checks its shaderc count, debug output and results.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;

struct ProbeRun {
  int status = -1;
  std::string output;  // stdout and stderr
  // The value after "<field>=" in the probe's summary line; -1 when absent.
  long long get(const std::string& field) const {
    const std::string key = field + "=";
    for (std::size_t at = output.find(key); at != std::string::npos;
         at = output.find(key, at + 1)) {
      if (at == 0 || output[at - 1] == ' ' || output[at - 1] == '\n') {
        return std::atoll(output.c_str() + at + key.size());
      }
    }
    return -1;
  }
  int count(const std::string& what) const {
    int n = 0;
    for (std::size_t p = output.find(what); p != std::string::npos; p = output.find(what, p + 1)) {
      ++n;
    }
    return n;
  }
};

std::string probe_path() {
  return std::string(std::getenv("TEST_SRCDIR")) + "/" + std::getenv("TEST_WORKSPACE") +
         "/tests/kernels/cache_probe";
}

ProbeRun run_probe(const std::string& cache_dir, int debug) {
  const std::string cmd = "VKA_CACHE_DIR='" + cache_dir + "' VKA_DEBUG=" + std::to_string(debug) +
                          " '" + probe_path() + "' 2>&1";
  ProbeRun r;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) return r;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof(buf), pipe)) > 0;) r.output.append(buf, n);
  const int status = ::pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

class SecondProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = std::string(std::getenv("TEST_TMPDIR")) + "/second_process_XXXXXX";
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir = templ + "/cache";  // the cache creates it
  }
  std::string dir;
};

TEST_F(SecondProcessTest, SecondRunCompilesNothing) {
  ProbeRun first = run_probe(dir, 2);
  ASSERT_EQ(first.status, 0) << first.output;
  EXPECT_EQ(first.get("shaderc"), 3) << first.output;
  EXPECT_EQ(first.get("disk_hits"), 0) << first.output;
  EXPECT_EQ(first.count("[cache] compile ew_"), 3) << first.output;  // VKA_DEBUG=2: one per compile
  EXPECT_EQ(first.count(" ms\n"), 3) << first.output;

  ProbeRun second = run_probe(dir, 2);
  ASSERT_EQ(second.status, 0) << second.output;
  EXPECT_EQ(second.get("shaderc"), 0) << second.output;
  EXPECT_EQ(second.get("disk_hits"), 3) << second.output;
  EXPECT_EQ(second.get("pipeline_cache_loads"), 1) << second.output;
  EXPECT_EQ(second.get("corrupt"), 0) << second.output;
  EXPECT_EQ(second.count("[cache] compile"), 0) << second.output;
  EXPECT_EQ(second.get("mismatches"), 0) << second.output;
}

TEST_F(SecondProcessTest, ACorruptFileCostsOneCompileOnce) {
  ASSERT_EQ(run_probe(dir, 0).status, 0);
  std::vector<fs::path> spv;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".spv") spv.push_back(e.path());
  }
  ASSERT_EQ(spv.size(), 3u);
  std::ofstream(spv[1], std::ios::binary | std::ios::trunc) << "not a cache file";
  ProbeRun third = run_probe(dir, 1);
  ASSERT_EQ(third.status, 0) << third.output;
  EXPECT_EQ(third.get("shaderc"), 1) << third.output;
  EXPECT_EQ(third.get("corrupt"), 1) << third.output;
  EXPECT_EQ(third.count("[cache] ignoring " + spv[1].string() + ": bad magic"), 1) << third.output;
  ProbeRun fourth = run_probe(dir, 0);
  EXPECT_EQ(fourth.get("shaderc"), 0) << fourth.output;
  EXPECT_EQ(fourth.get("corrupt"), 0) << fourth.output;
}

TEST_F(SecondProcessTest, VerboseDebugPrintsTheNumberedGlsl) {
  ProbeRun r = run_probe(dir, 3);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.count("   1| #version 450"), 3) << r.output;
}

TEST_F(SecondProcessTest, UnusableDirectoryIsReportedOnceAndStillCorrect) {
  fs::create_directories(dir);
  std::ofstream(dir + "/file") << "x";
  ProbeRun r = run_probe(dir + "/file/sub", 1);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.count("[cache] disk cache off"), 1) << r.output;
  EXPECT_EQ(r.get("shaderc"), 3) << r.output;
  EXPECT_EQ(r.get("mismatches"), 0) << r.output;
  ProbeRun quiet = run_probe(dir + "/file/sub", 0);
  EXPECT_EQ(quiet.count("[cache]"), 0) << quiet.output;
}

TEST_F(SecondProcessTest, ConcurrentProcessesNeverSeeHalfFiles) {
  std::vector<std::future<ProbeRun>> runs;
  for (int i = 0; i < 4; ++i) runs.push_back(std::async(std::launch::async, run_probe, dir, 1));
  for (auto& f : runs) {
    ProbeRun r = f.get();
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(r.get("corrupt"), 0) << r.output;
    EXPECT_EQ(r.get("mismatches"), 0) << r.output;
  }
  ProbeRun after = run_probe(dir, 1);
  EXPECT_EQ(after.get("shaderc"), 0) << after.output;
  EXPECT_EQ(after.get("corrupt"), 0) << after.output;
  for (const auto& e : fs::directory_iterator(dir)) {
    EXPECT_EQ(e.path().filename().string().rfind(".tmp", 0), std::string::npos) << e.path();
  }
}

}  // namespace
