// A small hand-made graph in Neo4j import format, built once into a temporary graph folder.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "lakeqa/common/fs.h"
#include "lakeqa/graph/graph.h"

namespace lakeqa::graph::testing {

inline const char* kPlayers =
    "wikidata_id:ID(Player),name,height\n"
    "P1,Dennis Rodman,201 centimetre\n"
    "P2,Tall Guy,2.2 metre\n"
    "P3,Short Guy,180 centimetre\n"
    "P4,\"Comma, Name\",\n";
inline const char* kTeams =
    "wikidata_id:ID(Team),name,inception\n"
    "T1,Detroit Pistons,1941\n"
    "T2,Golden State Warriors,1946\n";
inline const char* kCoaches = "wikidata_id:ID(Coach),name\nC1,Coach One\n";
inline const char* kPlaysFor =
    ":START_ID(Player),:END_ID(Team),start_time,sport_number\n"
    "P1,T1,1986,10\n"
    "P2,T2,2000,5\n"
    "P3,T2,2001,7\n"
    "P1,T2,1999,91\n";
inline const char* kDraftedBy =
    ":START_ID(Player),:END_ID(Team),time\n"
    "P2,T2,1998\n"
    "P3,T2,1999\n"
    "P9,T2,2000\n"
    "P3,T7,2001\n";
inline const char* kCoachedBy = ":START_ID(Team),:END_ID(Coach)\nT1,C1\n";

class SmallGraph : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto d = MakeTempDir("lakeqa-graph-test");
    ASSERT_TRUE(d.ok());
    dir_ = new std::string(*d + "/graph");
    GraphBuilder b;
    ASSERT_TRUE(b.AddFile("Player.csv", "Player", kPlayers).ok());
    ASSERT_TRUE(b.AddFile("Team.csv", "Team", kTeams).ok());
    ASSERT_TRUE(b.AddFile("Coach.csv", "Coach", kCoaches).ok());
    ASSERT_TRUE(b.AddFile("relation_playsFor.csv", "relation_playsFor", kPlaysFor).ok());
    ASSERT_TRUE(b.AddFile("relation_draftedBy.csv", "relation_draftedBy", kDraftedBy).ok());
    ASSERT_TRUE(b.AddFile("relation_coachedBy.csv", "relation_coachedBy", kCoachedBy).ok());
    ASSERT_TRUE(b.Write(*dir_).ok());
    auto g = Graph::Open(*dir_);
    ASSERT_TRUE(g.ok()) << g.status().ToString();
    graph_ = g->release();
  }
  static void TearDownTestSuite() {
    delete graph_;
    graph_ = nullptr;
    if (dir_) (void)RemoveAll(dir_->substr(0, dir_->rfind('/')));
    delete dir_;
    dir_ = nullptr;
  }
  static inline Graph* graph_ = nullptr;
  static inline std::string* dir_ = nullptr;
};

}  // namespace lakeqa::graph::testing
