// HTML → text throughput of the converter the lake builder uses (gumbo, ingest::HtmlToText), over the
// files named on the command line, each converted `repeat` times. Prints one JSON line. The competitor
// (BeautifulSoup) runs on the same files in bench/lake_build.sh.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ingest/documents.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: bench_html_to_text <repeat> <file>...\n");
    return 2;
  }
  int repeat = std::atoi(argv[1]);
  std::vector<std::string> pages;
  for (int i = 2; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    pages.push_back(ss.str());
  }
  size_t in_bytes = 0, out_bytes = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < repeat; ++r) {
    for (const auto& p : pages) {
      out_bytes += lakeqa::ingest::HtmlToText(p, 64u << 20).size();
      in_bytes += p.size();
    }
  }
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "{\"files\": %zu, \"bytes\": %zu, \"text_bytes\": %zu, \"seconds\": %.3f, \"mb_per_s\": %.2f}\n",
      pages.size() * repeat, in_bytes, out_bytes, s, in_bytes / 1e6 / s);
  return 0;
}
