// The project file: tasks with optimistic versions, conflicts that name who and when, reviews, the audit
// log, the policy, and a file that is not a project.
#include <gtest/gtest.h>

#include "lakeqa/common/fs.h"
#include "lakeqa/workbench/project.h"

namespace lakeqa::workbench {
namespace {

class ProjectTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = *MakeTempDir("lakeqa-project-");
    auto p = Project::Open(dir_ + "/p.sqlite");
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    p_ = std::move(*p);
  }
  void TearDown() override {
    p_.reset();
    (void)RemoveAll(dir_);
  }
  ProjectTask NewTask() {
    ProjectTask t;
    t.question = "q";
    ProjectNode n;
    n.key = "1";
    n.source = "datagov/x/files/rows.txt";
    t.nodes.push_back(n);
    auto c = p_->CreateTask(t, "alice");
    EXPECT_TRUE(c.ok()) << c.status().ToString();
    return *c;
  }
  std::string dir_;
  std::unique_ptr<Project> p_;
};

TEST_F(ProjectTest, CreateNumbersTasksAndLogs) {
  ProjectTask a = NewTask();
  ProjectTask b = NewTask();
  EXPECT_EQ(a.question_id, "WB000001");
  EXPECT_EQ(b.question_id, "WB000002");
  EXPECT_EQ(a.version, 1);
  EXPECT_EQ(a.status, "draft");
  EXPECT_EQ(a.created_by, "alice");
  ProjectTask dup;
  dup.question_id = "WB000001";
  auto d = p_->CreateTask(dup, "bob");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), ErrorCode::kAlreadyExists);
  EXPECT_NE(d.status().message().find("WB000001"), std::string::npos);
  auto audit = p_->Audit(a.id, 10);
  ASSERT_TRUE(audit.ok());
  ASSERT_EQ(audit->size(), 1u);
  EXPECT_EQ((*audit)[0].action, "created");
}

TEST_F(ProjectTest, TwoEditorsNeverLoseAnEdit) {
  ProjectTask base = NewTask();
  // Both open version 1.
  ProjectTask alice = base, bob = base;
  alice.question = "alice's question";
  bob.nodes[0].fact = "answer = 1";
  auto a = p_->SaveTask(alice, 1, "alice");
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->version, 2);
  auto b = p_->SaveTask(bob, 1, "bob");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), ErrorCode::kAlreadyExists);
  const std::string& m = b.status().message();
  EXPECT_NE(m.find("conflict"), std::string::npos);
  EXPECT_NE(m.find("changed by alice"), std::string::npos) << m;
  EXPECT_NE(m.find("version 2"), std::string::npos) << m;
  EXPECT_NE(m.find("not applied"), std::string::npos) << m;
  // Bob reloads and applies his edit on top: both edits are in.
  ProjectTask reloaded = *p_->GetTask(base.id);
  reloaded.nodes[0].fact = "answer = 1";
  auto b2 = p_->SaveTask(reloaded, reloaded.version, "bob");
  ASSERT_TRUE(b2.ok()) << b2.status().ToString();
  EXPECT_EQ(b2->question, "alice's question");
  EXPECT_EQ(b2->nodes[0].fact, "answer = 1");
  EXPECT_EQ(b2->version, 3);
  auto audit = *p_->Audit(base.id, 10);
  ASSERT_EQ(audit[0].action, "saved");
  EXPECT_EQ(audit[0].who, "bob");
  EXPECT_EQ(audit[0].detail["changed"], Json::array({"node 1 fact"}));
}

TEST_F(ProjectTest, SaveWithoutChangesKeepsTheVersion) {
  ProjectTask t = NewTask();
  auto s = p_->SaveTask(t, t.version, "alice");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->version, t.version);
}

TEST_F(ProjectTest, LastRunSurvivesSavesAndAcceptedTasksAreReadOnly) {
  ProjectTask t = NewTask();
  ASSERT_TRUE(p_->SetLastRun(t.id, "1", {{"ok", true}, {"answer", "7"}}, "alice").ok());
  EXPECT_EQ(p_->SetLastRun(t.id, "9", Json::object(), "alice").code(), ErrorCode::kNotFound);
  t.question = "new";
  auto s = p_->SaveTask(t, t.version, "alice");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->nodes[0].last_run["answer"], "7");
  auto acc = p_->SetStatus(t.id, "accepted", s->version, "carol", Json::object());
  ASSERT_TRUE(acc.ok());
  auto edit = *acc;
  edit.question = "again";
  auto denied = p_->SaveTask(edit, acc->version, "alice");
  ASSERT_FALSE(denied.ok());
  EXPECT_EQ(denied.status().code(), ErrorCode::kPermissionDenied);
  EXPECT_NE(denied.status().message().find("reopen"), std::string::npos);
}

TEST_F(ProjectTest, ReviewsCountsAndPolicy) {
  ProjectTask t = NewTask();
  Review r;
  r.task_id = t.id;
  r.task_version = t.version;
  r.reviewer = "bob";
  r.verdict = "accept";
  NodeVerdict v;
  v.node = "1";
  v.sound = true;
  v.complete = false;
  v.comment = "misses 2021";
  r.nodes.push_back(v);
  ASSERT_TRUE(p_->AddReview(r).ok());
  r.reviewer = "carol";
  r.adjudicator = true;
  r.verdict = "revise";
  ASSERT_TRUE(p_->AddReview(r).ok());
  auto reviews = p_->Reviews(t.id);
  ASSERT_TRUE(reviews.ok());
  ASSERT_EQ(reviews->size(), 2u);
  EXPECT_EQ((*reviews)[0].nodes[0].complete, std::optional<bool>(false));
  EXPECT_EQ((*reviews)[0].nodes[0].comment, "misses 2021");
  EXPECT_TRUE((*reviews)[1].adjudicator);
  auto counts = p_->ReviewerCounts();
  ASSERT_TRUE(counts.ok());
  ASSERT_EQ(counts->size(), 2u);
  EXPECT_EQ((*counts)[0]["reviewer"], "bob");
  EXPECT_EQ((*counts)[0]["accept"], 1);
  EXPECT_EQ((*counts)[1]["adjudications"], 1);
  ReviewPolicy pol;
  pol.min_reviews = 3;
  pol.adjudicators = {"carol"};
  ASSERT_TRUE(p_->SetPolicy(pol, "admin").ok());
  auto back = p_->Policy();
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->min_reviews, 3);
  EXPECT_EQ(back->adjudicators, std::vector<std::string>{"carol"});
  EXPECT_FALSE(ReviewPolicy::FromJson({{"min_reviews", 0}}).ok());
  EXPECT_FALSE(ReviewPolicy::FromJson({{"adjudicators", {""}}}).ok());
}

TEST_F(ProjectTest, ReopenedFileKeepsEverything) {
  ProjectTask t = NewTask();
  p_.reset();
  auto p = Project::Open(dir_ + "/p.sqlite");
  ASSERT_TRUE(p.ok());
  auto back = (*p)->GetTask(t.id);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->nodes[0].source, "datagov/x/files/rows.txt");
}

TEST_F(ProjectTest, NotAProjectFileIsAClearError) {
  ASSERT_TRUE(WriteFileAtomic(dir_ + "/junk.sqlite", std::string(4096, 'x')).ok());
  auto p = Project::Open(dir_ + "/junk.sqlite");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("junk.sqlite"), std::string::npos) << p.status().ToString();
}

TEST(ProjectJson, WrongTypesAreNamed) {
  auto t = ProjectTask::FromJson({{"nodes", {{{"key", "1"}, {"fact", 5}}}}});
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("node 1: \"fact\" must be a string"), std::string::npos)
      << t.status().message();
  auto dup = ProjectTask::FromJson({{"nodes", {{{"key", "1"}}, {{"key", "1"}}}}});
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.status().message().find("used twice"), std::string::npos);
  auto r = Review::FromJson({{"nodes", {{{"node", "1"}, {"sound", "yes"}}}}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("node 1: \"sound\" must be true, false or null"), std::string::npos);
}

}  // namespace
}  // namespace lakeqa::workbench
