// Read runs: the run list, a run's task rows, and one task's trace (read on demand).
#include "workbench/internal.h"

namespace lakeqa::workbench {
namespace {

Result<ApiReply> ListRuns(Workbench::Impl& w, const ApiRequest&) {
  return ApiReply{200, {{"runs", w.runs->List()}}};
}

Result<ApiReply> RunTasks(Workbench::Impl& w, const ApiRequest& req) {
  LAKEQA_ASSIGN_OR_RETURN(Json j, w.runs->Tasks(req.args[0]));
  return ApiReply{200, j};
}

Result<ApiReply> RunTask(Workbench::Impl& w, const ApiRequest& req) {
  LAKEQA_ASSIGN_OR_RETURN(Json j, w.runs->Task(req.args[0], req.args[1]));
  return ApiReply{200, j};
}

}  // namespace

void AddRunRoutes(std::vector<Route>& routes) {
  routes.push_back({"GET", "/api/runs", ListRuns});
  routes.push_back({"GET", "/api/runs/{}/tasks", RunTasks});
  routes.push_back({"GET", "/api/runs/{}/tasks/{+}", RunTask});
}

}  // namespace lakeqa::workbench
