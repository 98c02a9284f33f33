// One chat call as both providers make it (the providers differ in the body, the headers and how they
// read a stream, not in how a call goes).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lakeqa/llm/chat.h"
#include "lakeqa/llm/http.h"

namespace lakeqa::llm {

// What both providers' stream readers keep: the reply so far, the first error, and whether the stream said
// it was complete.
struct StreamReply {
  ChatResponse r_;
  Status status_;
  bool done_ = false;
};

// Posts body to url and reads the answer: one JSON document (parse_full), or a stream of server-sent
// events that State reads (Event(event, data, where) per event, Finish(where) at the end). A streamed
// request may still be answered with one JSON document (PostChat handles both); each attempt starts with a
// fresh State, so a retry never sees a failed attempt's half.
template <class State>
Result<ChatResponse> PostChatAndRead(const std::string& url, const std::vector<std::string>& headers,
                                     const std::string& body, const HttpOptions& http, bool stream,
                                     Result<ChatResponse> (*parse_full)(const Json&, const std::string&)) {
  State state;
  SseParser sse([&](const std::string& event, const std::string& data) { state.Event(event, data, url); });
  LAKEQA_ASSIGN_OR_RETURN(
      std::optional<Json> whole,
      PostChat(url, headers, body, http, stream ? &sse : nullptr, [&] { state = State(); }));
  if (whole) return parse_full(*whole, url);
  return state.Finish(url);
}

}  // namespace lakeqa::llm
