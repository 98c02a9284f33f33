// `lakeqa lake cat <uri> <key> [--range A-B] [--json [--max-bytes N]]`: stream an object (or a byte
// range) to stdout. Under --json the bytes come inside one JSON object with the object's metadata: as
// "text" when they are valid UTF-8, else as "base64"; that copy is held in memory, hence --max-bytes.
#include <algorithm>
#include <cstdio>
#include <optional>

#include "cli/store_options.h"
#include "lakeqa/common/base64.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::cli {
namespace {

struct Opts {
  std::string uri, key, range;
  uint64_t max_bytes = 16 << 20;
  StoreFlags store;
  OutputOptions out;
};

struct Range {
  uint64_t start = 0, end = 0;  // inclusive
};

Result<std::optional<Range>> ParseRange(const std::string& text) {
  if (text.empty()) return std::optional<Range>();
  Range r;
  char extra = 0;
  if (std::sscanf(text.c_str(), "%lu-%lu%c", &r.start, &r.end, &extra) != 2 || r.end < r.start) {
    return InvalidArgument("--range must be A-B with A <= B (inclusive byte offsets): " + text);
  }
  return std::optional<Range>(r);
}

int PrintAsJson(lake::Store& store, const Opts& o, const std::optional<Range>& range) {
  auto info = store.Stat(o.key);
  if (!info.ok()) return Fail(info.status(), o.out);
  uint64_t length = info->size;
  if (range) length = range->start >= info->size ? 0 : std::min(info->size, range->end + 1) - range->start;
  if (length > o.max_bytes) {
    return Fail(
        ResourceExhausted(o.key + ": " + std::to_string(length) + " bytes is over --max-bytes " +
                          std::to_string(o.max_bytes) + " for --json (use --range, or cat without --json)"),
        o.out);
  }
  auto data = store.ReadRange(o.key, range ? range->start : 0, length);
  if (!data.ok()) return Fail(data.status(), o.out);
  Json j = {{"lake", store.Uri()},   {"key", info->key},           {"size", info->size},
            {"etag", info->etag},    {"mtime_ms", info->mtime_ms}, {"offset", range ? range->start : 0},
            {"length", data->size()}};
  if (IsValidUtf8(*data)) {
    j["encoding"] = "text";
    j["text"] = std::move(*data);
  } else {
    j["encoding"] = "base64";
    j["base64"] = EncodeBase64(*data);
  }
  PrintJson(j);
  return 0;
}

int Run(const Opts& o) {
  auto range = ParseRange(o.range);
  if (!range.ok()) return Fail(range.status(), o.out);
  auto store = OpenFromFlags(o.uri, o.store);
  if (!store.ok()) return Fail(store.status(), o.out);
  if (o.out.json) return PrintAsJson(**store, o, *range);
  if (*range) {
    auto data = (*store)->ReadRange(o.key, (*range)->start, (*range)->end - (*range)->start + 1);
    if (!data.ok()) return Fail(data.status(), o.out);
    std::fwrite(data->data(), 1, data->size(), stdout);
    return 0;
  }
  Status s = (*store)->ReadStream(o.key, [](std::string_view chunk) {
    return std::fwrite(chunk.data(), 1, chunk.size(), stdout) == chunk.size();
  });
  if (!s.ok()) return Fail(s, o.out);
  return 0;
}

Registration reg([](CLI::App& root, Commands& commands) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = Commands::Group(root, "lake", "Lakes: list, read, synthesise, build")
                      ->add_subcommand("cat", "Write an object to stdout");
  cmd->add_option("uri", o->uri, "Lake root")->required();
  cmd->add_option("key", o->key, "Object key, e.g. datagov/<id>/files/rows.txt")->required();
  cmd->add_option("--range", o->range, "Inclusive byte range A-B");
  cmd->add_option("--max-bytes", o->max_bytes, "With --json: refuse objects (or ranges) larger than this")
      ->capture_default_str();
  AddStoreFlags(cmd, o->store);
  AddOutputOptions(cmd, o->out);
  commands.Bind(cmd, [o] { return Run(*o); });
});

}  // namespace
}  // namespace lakeqa::cli
