#pragma once
// Checks on an SVG that gnuplot wrote: that it is well-formed XML (every element closed in
// order, one root <svg>) and which legend titles it holds. A small tag matcher, not a full XML
// parser: enough for gnuplot's output, which has no DTD and no CDATA sections.

#include <string>
#include <vector>

namespace mcpilot::test {

// Empty when well-formed; otherwise what is wrong, at which byte.
inline std::string svg_problem(const std::string& s) {
  std::vector<std::string> open;
  bool root_seen = false;
  std::size_t at = 0;
  while ((at = s.find('<', at)) != std::string::npos) {
    if (s.compare(at, 4, "<!--") == 0) {
      const auto end = s.find("-->", at);
      if (end == std::string::npos) return "unterminated comment at " + std::to_string(at);
      at = end + 3;
      continue;
    }
    const auto end = s.find('>', at);
    if (end == std::string::npos) return "unterminated tag at " + std::to_string(at);
    if (s[at + 1] == '?' || s[at + 1] == '!') {  // <?xml ...?>, <!DOCTYPE ...>
      at = end + 1;
      continue;
    }
    const bool closing = s[at + 1] == '/';
    const bool self_closing = s[end - 1] == '/';
    const std::size_t name_begin = at + (closing ? 2 : 1);
    const std::size_t name_end = s.find_first_of(" \t\r\n/>", name_begin);
    const std::string name = s.substr(name_begin, name_end - name_begin);
    if (closing) {
      if (open.empty() || open.back() != name)
        return "</" + name + "> at " + std::to_string(at) + " closes " +
               (open.empty() ? std::string("nothing") : "<" + open.back() + ">");
      open.pop_back();
    } else if (!self_closing) {
      if (open.empty()) {
        if (root_seen || name != "svg") return "a second root or a root other than <svg>";
        root_seen = true;
      }
      open.push_back(name);
    }
    at = end + 1;
  }
  if (!root_seen) return "no <svg> root";
  if (!open.empty()) return "<" + open.back() + "> never closed";
  return {};
}

// Whether some text node is exactly `text` (gnuplot writes each legend title as one).
inline bool svg_has_text(const std::string& svg, std::string text) {
  std::string escaped;
  for (char c : text) {
    if (c == '&')
      escaped += "&amp;";
    else if (c == '<')
      escaped += "&lt;";
    else if (c == '>')
      escaped += "&gt;";
    else
      escaped += c;
  }
  return svg.find(">" + escaped + "<") != std::string::npos;
}

}  // namespace mcpilot::test
