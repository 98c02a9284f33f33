// Opening a lake at start-up and matching it with the index's manifest.
#include "lakeqa/catalog/lake_check.h"
#include "lakeqa/catalog/index_dir.h"

#include <openssl/evp.h>

#include <filesystem>

#include "catalog/sqlite_util.h"
#include "lakeqa/catalog/catalog.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "lakeqa/common/strings.h"

namespace lakeqa::catalog {
namespace {

// file:///a/b/../c → /a/c with symlinks resolved as far as the path exists; other URIs as they are.
std::string Canonical(std::string uri) {
  while (uri.size() > 1 && uri.back() == '/') uri.pop_back();
  if (!StartsWith(uri, "file://")) return uri;
  std::error_code ec;
  auto p = std::filesystem::weakly_canonical(uri.substr(7), ec);
  return ec ? uri : "file://" + p.string();
}

// The fingerprint of the files the catalog lists: the lake as it was when the index was built.
Result<std::string> CatalogFingerprint(const std::string& index_dir, const Json& manifest) {
  if (manifest.contains("lake_content_sha256") && manifest["lake_content_sha256"].is_string())
    return manifest["lake_content_sha256"].get<std::string>();
  std::string path = IndexDir(index_dir).Catalog();
  if (!PathExists(path)) return std::string();
  LAKEQA_ASSIGN_OR_RETURN(auto cat, Catalog::Open(path, /*read_only=*/true));
  ContentFingerprint fp;
  Stmt all(cat->db(), "SELECT key, size FROM files ORDER BY key");
  while (all.Step()) fp.Add(all.Text(0), static_cast<uint64_t>(all.Int(1)));
  LAKEQA_RETURN_IF_ERROR(all.status());
  return fp.Finish();
}

}  // namespace

struct ContentFingerprint::Ctx {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> md{EVP_MD_CTX_new(), EVP_MD_CTX_free};
  uint64_t count = 0;
};

ContentFingerprint::ContentFingerprint() : ctx_(std::make_unique<Ctx>()) {
  EVP_DigestInit_ex(ctx_->md.get(), EVP_sha256(), nullptr);
}
ContentFingerprint::~ContentFingerprint() = default;

void ContentFingerprint::Add(const std::string& key, uint64_t size) {
  std::string line = key + "\t" + std::to_string(size) + "\n";
  EVP_DigestUpdate(ctx_->md.get(), line.data(), line.size());
  ++ctx_->count;
}

std::string ContentFingerprint::Finish() {
  unsigned char h[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_DigestFinal_ex(ctx_->md.get(), h, &n);
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < n; ++i) {
    out += kHex[h[i] >> 4];
    out += kHex[h[i] & 15];
  }
  return out;
}

Result<std::string> LakeContentFingerprint(lake::Store& store) {
  ContentFingerprint fp;
  LAKEQA_RETURN_IF_ERROR(store.ListAll("", [&](const lake::ObjectInfo& o) {
    fp.Add(o.key, o.size);
    return Status::Ok();
  }));
  return fp.Finish();
}

std::string LakeCheck::Warning() const {
  return "the index was built from " + index_lake + ", not from the lake in use (" + lake +
         "); used anyway because of --force";
}

Result<LakeCheck> CheckLake(lake::Store& store, const std::string& index_dir, bool require_objects) {
  LakeCheck out;
  out.lake = store.Uri();
  lake::ListOptions lo;
  lo.delimiter = '/';
  lo.max_keys = 1;
  auto page = store.List(lo);
  if (!page.ok()) return page.status().WithContext("opening the lake " + out.lake);
  if (require_objects && page->objects.empty() && page->common_prefixes.empty()) {
    return NotFound("the lake " + out.lake + " holds no objects (does it exist?)");
  }
  std::string manifest = IndexDir(index_dir).Manifest();
  if (index_dir.empty() || !PathExists(manifest)) return out;
  LAKEQA_ASSIGN_OR_RETURN(std::string text, ReadFile(manifest, 16 << 20));
  LAKEQA_ASSIGN_OR_RETURN(Json m, ParseJson(text, manifest));
  if (m.is_object() && m.contains("lake") && m["lake"].is_string())
    out.index_lake = m["lake"].get<std::string>();
  out.differs = !out.index_lake.empty() && Canonical(out.index_lake) != Canonical(out.lake);
  if (!out.differs) return out;
  // Another location: the same lake if it holds what the catalog lists (a copy, a moved folder, the
  // same files behind S3).
  LAKEQA_ASSIGN_OR_RETURN(std::string indexed, CatalogFingerprint(index_dir, m));
  if (indexed.empty()) return out;
  auto here = LakeContentFingerprint(store);
  if (!here.ok())
    return here.status().WithContext("listing the lake " + out.lake + " to compare it with the index");
  if (*here == indexed) {
    out.differs = false;
    out.moved = true;
  }
  return out;
}

}  // namespace lakeqa::catalog
