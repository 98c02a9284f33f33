// The real LakeQA task code reads the lake with boto3; inside the sandbox the boto3 stand-in serves the
// same calls from a local lake mounted read-only.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "exec/sandbox_available.h"
#include "lakeqa/common/fs.h"
#include "lakeqa/common/json.h"
#include "lakeqa/exec/python.h"
#include "support/require_protection.h"

namespace lakeqa::exec {
namespace {

class Boto3ShimTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!SandboxAvailable().ok())
      LAKEQA_SKIP_MISSING_PROTECTION("Python sandbox unavailable: " + SandboxAvailable().ToString());
    root_ = *MakeTempDir("lakeqa-boto3-");
    ::chmod(root_.c_str(), 0755);
    dir_ = root_ + "/sandbox";
    lake_ = root_ + "/lake";
    ASSERT_TRUE(MakeDirs(dir_).ok());
    Put("datagov/apd-searches-by-type/files/rows.txt",
        "Occurred Year,TCOLE Search Based On,Sector\n"
        "2022,Contraband/evidence In Plain View,Adam\n"
        "2022,Contraband/evidence In Plain View,Baker\n"
        "2022,Contraband/evidence In Plain View,Adam\n"
        "2021,Contraband/evidence In Plain View,Baker\n"
        "2022,Consent,Baker\n");
    Put("datagov/apd-searches-by-type/metadata.json", "{\"title\": \"APD searches\"}");
    Put("wikipedia/Austin,_Texas/content.txt", "Austin is the capital of Texas.\n");
    Put("wikipedia/Austin_Police/content.txt", "x\n");
    // Lake files are world-readable, as a lake build leaves them.
    for (auto& e : std::filesystem::recursive_directory_iterator(lake_))
      ::chmod(e.path().c_str(), e.is_directory() ? 0755 : 0644);
    ::chmod(lake_.c_str(), 0755);
  }
  void TearDown() override {
    if (!root_.empty()) (void)RemoveAll(root_);
  }
  void Put(const std::string& key, const std::string& data) {
    ASSERT_TRUE(WriteFileAtomic(lake_ + "/" + key, data).ok());
  }
  PythonResult Run(const std::string& code, bool observe = true) {
    PythonOptions o;
    o.lake = LakeMount{lake_, {"lakeqa-yc4103-datalake"}};
    o.observe_access = observe;
    auto r = RunPython(dir_, code, o);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : PythonResult{};
  }
  std::string root_, dir_, lake_;
};

// Verbatim from a LakeQA task's `fact` (datagov/apd-searches-by-type), plus a print of the answer.
constexpr const char* kTaskFact = R"PY(import io
import pandas as pd
import boto3
from botocore import UNSIGNED
from botocore.config import Config

source = "datagov/apd-searches-by-type/files/rows.txt"
bucket = "lakeqa-yc4103-datalake"
obj = boto3.client("s3", config=Config(signature_version=UNSIGNED)).get_object(Bucket=bucket, Key=source)
df = pd.read_csv(io.BytesIO(obj["Body"].read()), low_memory=False)
year = pd.to_numeric(df["Occurred Year"], errors="coerce")
search_basis = df["TCOLE Search Based On"].astype(str).str.strip()
sector = df["Sector"].astype(str).str.strip()
filtered = df[
    year.eq(2022)
    & search_basis.eq("Contraband/evidence In Plain View")
    & sector.ne("")
    & sector.str.lower().ne("unknown")
]
answer = str(filtered["Sector"].astype(str).str.strip().value_counts().idxmax())
print(answer)
)PY";

TEST_F(Boto3ShimTest, RealTaskFactCodeRunsUnchanged) {
  auto r = Run(kTaskFact);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stdout_text, "Adam\n");
  EXPECT_EQ(r.accessed_keys, (std::vector<std::string>{"datagov/apd-searches-by-type/files/rows.txt"}));
}

TEST_F(Boto3ShimTest, UnobservedRunsFallBackToTheStandInsLog) {
  // Where lakeqa cannot observe opens (no CAP_SYS_ADMIN), the stand-in's own log is all there is.
  auto r = Run(kTaskFact, /*observe=*/false);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_FALSE(r.access_observed);
  EXPECT_FALSE(r.access_note.empty());
  EXPECT_EQ(r.accessed_keys, (std::vector<std::string>{"datagov/apd-searches-by-type/files/rows.txt"}));
  auto log = ReadFile(dir_ + "/.lakeqa/accessed.jsonl");
  ASSERT_TRUE(log.ok());
  EXPECT_NE(log->find("\"key\": \"datagov/apd-searches-by-type/files/rows.txt\""), std::string::npos) << *log;
}

TEST_F(Boto3ShimTest, OtherClientCallsUsedByTasks) {
  auto r = Run(R"PY(import boto3, io, json
from dotenv import load_dotenv
from botocore.client import Config
from botocore.exceptions import ClientError
load_dotenv('.env')
s3 = boto3.client('s3', region_name='us-east-1', config=Config(signature_version='s3v4'))
bucket = 'lakeqa-yc4103-datalake'
print(json.loads(s3.get_object(Bucket=bucket, Key='datagov/apd-searches-by-type/metadata.json')['Body'].read())['title'])
text = io.TextIOWrapper(s3.get_object(Bucket=bucket, Key='wikipedia/Austin,_Texas/content.txt')['Body'], encoding='utf-8')
print(text.read().strip())
part = s3.get_object(Bucket=bucket, Key='wikipedia/Austin,_Texas/content.txt', Range='bytes=0-5')
print(part['Body'].read(), part['ContentLength'])
print(s3.head_object(Bucket=bucket, Key='datagov/apd-searches-by-type/metadata.json')['ContentLength'])
page = s3.list_objects_v2(Bucket=bucket, Prefix='wikipedia/Austin', Delimiter='/')
print([p['Prefix'] for p in page['CommonPrefixes']])
page = s3.list_objects_v2(Bucket=bucket, Prefix='datagov/apd-searches-by-type/')
print([(o['Key'], o['Size']) for o in page['Contents']])
keys = [o['Key'] for p in s3.get_paginator('list_objects_v2').paginate(Bucket=bucket, Prefix='', MaxKeys=1) for o in p.get('Contents', [])]
print(len(keys))
for key in ['missing/file.txt', '../../etc/passwd', '/etc/passwd']:
    try:
        s3.get_object(Bucket=bucket, Key=key)
    except s3.exceptions.NoSuchKey as e:
        print('NoSuchKey', e.response['Error']['Code'])
try:
    s3.get_object(Bucket='other-bucket', Key='wikipedia/Austin_Police/content.txt')
except ClientError as e:
    print(e.response['Error']['Code'])
s3.download_file(bucket, 'wikipedia/Austin_Police/content.txt', 'local.txt')
print(open('local.txt').read().strip())
try:
    open('/lake/wikipedia/Austin_Police/content.txt', 'w')
except OSError as e:
    print('lake read-only', type(e).__name__)
)PY",
               /*observe=*/false);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stdout_text,
            "APD searches\n"
            "Austin is the capital of Texas.\n"
            "b'Austin' 6\n"
            "25\n"
            "['wikipedia/Austin,_Texas/', 'wikipedia/Austin_Police/']\n"
            "[('datagov/apd-searches-by-type/files/rows.txt', 240), "
            "('datagov/apd-searches-by-type/metadata.json', 25)]\n"
            "4\n"
            "NoSuchKey NoSuchKey\nNoSuchKey NoSuchKey\nNoSuchKey NoSuchKey\n"
            "NoSuchBucket\n"
            "x\n"
            "lake read-only OSError\n");
  EXPECT_EQ(r.accessed_keys.size(), 4u);
}

TEST_F(Boto3ShimTest, WithoutALakeTheErrorSaysWhy) {
  auto r =
      RunPython(dir_, "import boto3\nboto3.client('s3').get_object(Bucket='b', Key='k')\n", PythonOptions{});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 1);
  EXPECT_NE(r->stderr_text.find("no lake is mounted"), std::string::npos) << r->stderr_text;
}

}  // namespace
}  // namespace lakeqa::exec
