// A gnuplot picture inside a report page. gnuplot's SVG terminal names its markers and filters
// with fixed ids (gpPt0, textbox, gnuplot_canvas), so two figures on one page would share ids and
// the second's references would reach the first's definitions: every id and reference is given
// the figure's own prefix. gnuplot's "Gnuplot" title becomes the figure's caption and its
// description the figure's text alternative, which screen readers read for role="img".
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "html_page.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/io/atomic_file.hpp"

namespace mcpilot::html {

namespace {

void replace_all_in(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

// Renames the ids of one figure's tags, and the references to them, with the figure's prefix.
// gnuplot itself writes some ids twice (gnuplot_plot_1 for a series' key sample and for its
// curve, which nothing references): a repeated id gets a count, "-2", so that every id on the
// page is one element's. References point at definitions, which gnuplot writes first.
class id_prefixer {
 public:
  explicit id_prefixer(std::string prefix) : prefix_(std::move(prefix)) {}

  // One tag (the text from '<' to '>').
  std::string tag(std::string t) {
    for (const char q : {'\'', '"'}) {
      const std::string key = std::string(" id=") + q;
      for (auto at = t.find(key); at != std::string::npos;) {
        const auto start = at + key.size();
        const auto end = t.find(q, start);
        if (end == std::string::npos) break;
        const std::string id = t.substr(start, end - start);
        const std::size_t seen = seen_[id]++;
        std::string renamed = prefix_ + "-" + id;
        if (seen) (renamed += '-') += std::to_string(seen + 1);
        t.replace(start, end - start, renamed);
        at = t.find(key, start + renamed.size());
      }
      replace_all_in(t, std::string("href=") + q + "#",
                     std::string("href=") + q + "#" + prefix_ + "-");
    }
    replace_all_in(t, "url(#", "url(#" + prefix_ + "-");
    return t;
  }

 private:
  std::string prefix_;
  std::map<std::string, std::size_t> seen_;
};

// Replaces the text of the first <name>...</name> element with `text`, or inserts one right
// after `after` (the title, for a description), or else after the root's opening tag.
void set_element(std::string& svg, const std::string& name, const std::string& id,
                 const std::string& text, const std::string& after = "") {
  const std::string element = "<" + name + " id=\"" + id + "\">" + escape(text) + "</" + name + ">";
  const auto open = svg.find("<" + name + ">");
  const auto close = open == std::string::npos ? open : svg.find("</" + name + ">", open);
  if (close != std::string::npos) {
    svg.replace(open, close + name.size() + 3 - open, element);
    return;
  }
  if (const auto at = after.empty() ? std::string::npos : svg.find(after);
      at != std::string::npos) {
    svg.insert(at + after.size(), "\n" + element);
    return;
  }
  const auto root_end = svg.find('>');
  svg.insert(root_end + 1, "\n" + element);
}

}  // namespace

std::string inline_svg(std::string_view svg_text, const std::string& id, const std::string& title,
                       const std::string& description) {
  const auto root = svg_text.find("<svg");
  if (root == std::string_view::npos) throw input_error("gnuplot wrote no SVG picture");
  if (svg_text.find("<script") != std::string_view::npos)
    throw input_error("gnuplot's picture holds a script, which the report does not carry");
  std::string out;
  out.reserve(svg_text.size() + svg_text.size() / 8);
  // Tags get their ids prefixed; text between them (titles, labels) is copied as it is.
  id_prefixer ids(id);
  std::size_t at = root;
  while (at < svg_text.size()) {
    const auto lt = svg_text.find('<', at);
    if (lt == std::string_view::npos) {
      out.append(svg_text.substr(at));
      break;
    }
    out.append(svg_text.substr(at, lt - at));
    const auto gt = svg_text.find('>', lt);
    if (gt == std::string_view::npos) throw input_error("gnuplot's picture ends inside a tag");
    out += ids.tag(std::string(svg_text.substr(lt, gt + 1 - lt)));
    at = gt + 1;
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  set_element(out, "title", id + "-title", title);
  set_element(out, "desc", id + "-desc", description, "</title>");
  out.insert(4, " role=\"img\" aria-labelledby=\"" + id + "-title " + id + "-desc\"");
  return out;
}

std::string render_svg(plot_request request) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path folder = fs::temp_directory_path(ec);
  if (ec) folder = "/tmp";
  request.format = plot_format::svg;
  request.output = temporary_path_beside((folder / "mcpilot-report-figure.svg").string(), ".svg");
  try {
    render_plot(request);
  } catch (const input_error& e) {
    // The driver names the picture's path, a temporary file the reader never sees.
    std::string why = e.what();
    const std::string prefix = "--plot " + request.output + ": ";
    if (why.rfind(prefix, 0) == 0) why.erase(0, prefix.size());
    throw input_error(why);
  }
  std::ifstream in(request.output, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  fs::remove(request.output, ec);
  return text.str();
}

}  // namespace mcpilot::html
