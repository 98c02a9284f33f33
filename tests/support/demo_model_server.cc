// A loopback model for the demo's LAKEQA_MODEL test: the OpenAI Chat Completions server the llm tests use
// (tests/llm/model_server.h, real SSE wire protocol), scripted like a terse agent: it searches for the
// question's longest words, then submits an answer. Hosted model APIs cannot be reached from tests.
// Prints its base URL (http://127.0.0.1:<port>/v1) on stdout and serves until SIGTERM or SIGINT; on exit
// it prints the number of model calls it answered to stderr.
#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include <pthread.h>

#include "llm/model_server.h"

int main() {
  using lakeqa::Json;
  using lakeqa::testing::OpenAiToolCallStream;
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  // Blocked before the server threads start so that they inherit the mask and sigwait below gets them.
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  lakeqa::testing::ModelServer srv([](const std::string&, const Json& body) {
    int turn = 0;
    std::string question;
    for (const Json& m : body.value("messages", Json::array())) {
      turn += m.value("role", "") == "assistant";
      if (m.value("role", "") == "user" && question.empty() && m["content"].is_string())
        question = m["content"].get<std::string>();
    }
    if (turn == 0) {
      // The two longest words of the question, as the search keywords.
      std::vector<std::string> words;
      std::string w;
      for (char c : question + " ") {
        if (std::isalnum(static_cast<unsigned char>(c))) {
          w += c;
        } else if (!w.empty()) {
          words.push_back(w);
          w.clear();
        }
      }
      std::sort(words.begin(), words.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
      Json kw = Json::array();
      for (size_t i = 0; i < words.size() && i < 2; ++i) kw.push_back(words[i]);
      return OpenAiToolCallStream("search_keyword", {{"keywords", kw}}, "call_search");
    }
    return OpenAiToolCallStream("submit_answer", {{"answer", "[42]"}}, "call_submit");
  });
  std::printf("%s/v1\n", srv.Url().c_str());
  std::fflush(stdout);
  int sig = 0;
  sigwait(&set, &sig);
  std::fprintf(stderr, "demo_model_server: %d calls\n", srv.calls());
  return 0;
}
