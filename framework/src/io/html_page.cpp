// The HTML of a report page: one file that a browser shows without fetching anything. The style
// sheet is inline (a Content-Security-Policy allows inline styles and nothing else), figures are
// inline SVG, and the layout narrows to a phone's width (tables and figures scroll sideways inside
// their own box rather than shrinking their text) and prints without the navigation, with figures
// and short tables kept on one page.
#include "html_page.hpp"

#include <sstream>

#include "mcpilot/error.hpp"

namespace mcpilot::html {

namespace {

constexpr const char* content_security_policy =
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
    "form-action 'none'";

constexpr const char* style_sheet = R"css(
:root{color-scheme:light;--good:#1a7f37;--warning:#9a6700;--bad:#cf222e;--line:#d0d7de;--soft:#f6f8fa;--muted:#57606a}
*{box-sizing:border-box}
body{margin:0 auto;max-width:75rem;padding:1rem 1.25rem;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1f2328;background:#fff}
h1{font-size:1.6rem;line-height:1.25;margin:.25rem 0;overflow-wrap:anywhere}
h2{font-size:1.3rem;margin:2rem 0 .5rem;padding-bottom:.2rem;border-bottom:1px solid var(--line)}
h3{font-size:1.05rem;margin:1.25rem 0 .25rem}
.subtitle{color:var(--muted);margin:0 0 .5rem;overflow-wrap:anywhere}
nav{font-size:.95rem;margin:.5rem 0 1rem}nav a{margin-right:1rem;white-space:nowrap}
a{color:#0969da}
.verdict{border-left:.45rem solid var(--good);background:var(--soft);padding:.75rem 1rem;margin:.5rem 0 1rem;font-size:1.1rem}
.verdict.warning{border-color:var(--warning)}.verdict.bad{border-color:var(--bad)}
.verdict .headline{font-weight:700}
.verdict p{margin:.25rem 0}.verdict .note{font-size:.95rem}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:.25rem 0 1rem;font-variant-numeric:tabular-nums}
caption{caption-side:top;text-align:left;font-weight:600;padding:.25rem 0;max-width:calc(100vw - 1.5rem)}
th,td{border:1px solid var(--line);padding:.25rem .55rem;vertical-align:top;text-align:left}
thead th{background:var(--soft)}
tbody th{font-weight:600}
td.number{text-align:right;white-space:nowrap}td.long{min-width:14rem}
.table-note{color:var(--muted);font-size:.9rem;margin:-.75rem 0 1rem}
figure{margin:1rem 0 1.5rem;padding:.5rem;border:1px solid var(--line)}
figure .plot{overflow-x:auto}
figure svg{display:block;width:100%;height:auto;min-width:36rem}
figcaption{margin:.5rem 0 .25rem}
.missing{padding:1.5rem 1rem;background:#fff8c5;border:1px dashed var(--warning)}
pre{background:var(--soft);padding:.75rem;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.9rem}
code{font-family:ui-monospace,"SFMono-Regular","DejaVu Sans Mono",Menlo,Consolas,monospace}
footer{margin-top:2rem;color:var(--muted);font-size:.9rem}
@media (max-width:40rem){body{padding:.5rem .6rem;font-size:15px}h1{font-size:1.3rem}th,td{padding:.2rem .35rem}}
@media print{body{max-width:none;padding:0;font-size:10pt}nav{display:none}a{color:inherit;text-decoration:none}
h2,h3{break-after:avoid}figure,.verdict{break-inside:avoid}tr{break-inside:avoid}thead{display:table-header-group}
.scroll,figure .plot{overflow:visible}figure svg{min-width:0}pre{white-space:pre-wrap}
table{font-size:8.5pt}th,td{padding:.1rem .3rem}td.number{white-space:normal}td.long{min-width:0}}
)css";

// The summary starts a sentence after the headline.
std::string sentence(std::string s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s.empty() || s.back() == '.' ? s : s + ".";
}

std::string tone_class(tone t) {
  switch (t) {
    case tone::good:
      return "verdict good";
    case tone::warning:
      return "verdict warning";
    case tone::bad:
      return "verdict bad";
  }
  return "verdict";
}

// A word that a POSIX shell reads back unchanged, quoted only when it has to be.
std::string shell_word(const std::string& w) {
  if (!w.empty() &&
      w.find_first_not_of(
          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=,+@%-") ==
          std::string::npos)
    return w;
  std::string out = "'";
  for (char c : w) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The environment's fields as rows; nested objects get dotted names, arrays are joined.
void flatten(const nlohmann::ordered_json& j, const std::string& prefix,
             std::vector<std::vector<std::string>>& rows) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string name = prefix.empty() ? it.key() : prefix + "." + it.key();
    const auto& v = it.value();
    if (v.is_object()) {
      flatten(v, name, rows);
    } else if (v.is_string()) {
      rows.push_back({name, v.get<std::string>()});
    } else if (v.is_array()) {
      std::string joined;
      for (const auto& e : v) {
        if (!joined.empty()) joined += ", ";
        joined += e.is_string() ? e.get<std::string>() : e.dump();
      }
      rows.push_back({name, joined});
    } else {
      rows.push_back({name, v.is_null() ? "-" : v.dump()});
    }
  }
}

class writer {
 public:
  writer(std::ostream& out, report_outcome& outcome) : out_(out), outcome_(outcome) {}

  void table_html(const table& t) {
    const std::string id = "table-" + std::to_string(++tables_);
    out_ << "<div class=\"scroll\"><table id=\"" << id << "\">\n<caption>Table " << tables_ << ". "
         << escape(t.caption) << "</caption>\n";
    if (!t.header.empty()) {
      out_ << "<thead><tr>";
      for (const auto& h : t.header) out_ << "<th scope=\"col\">" << escape(h) << "</th>";
      out_ << "</tr></thead>\n";
    }
    out_ << "<tbody>\n";
    for (const auto& row : t.rows) {
      out_ << "<tr>";
      for (std::size_t c = 0; c < row.size(); ++c) {
        const bool number = c < t.numeric.size() && t.numeric[c];
        if (c == 0 && t.row_headers)
          out_ << "<th scope=\"row\">" << escape(row[c]) << "</th>";
        else if (number)
          out_ << "<td class=\"number\">" << escape(row[c]) << "</td>";
        else  // a sentence: wide enough to read, not squeezed by its neighbours
          out_ << (row[c].size() > 40 ? "<td class=\"long\">" : "<td>") << escape(row[c])
               << "</td>";
      }
      out_ << "</tr>\n";
    }
    out_ << "</tbody></table></div>\n";
    if (!t.note.empty()) out_ << "<p class=\"table-note\">" << escape(t.note) << "</p>\n";
  }

  // `missing`: why no figure can be drawn at all (gnuplot absent), or empty.
  void figure_html(const figure& f, const std::string& missing) {
    const std::size_t n = ++figures_;
    const std::string id = "figure-" + std::to_string(n);
    ++outcome_.figures;
    std::string svg, why = missing;
    if (why.empty()) {
      try {
        svg = inline_svg(render_svg(f.plot), id, "Figure " + std::to_string(n) + ". " + f.caption,
                         f.description);
      } catch (const input_error& e) {
        why = e.what();
      }
    }
    out_ << "<figure id=\"" << id << "\">\n";
    if (why.empty()) {
      ++outcome_.drawn;
      out_ << "<div class=\"plot\">" << svg << "</div>\n";
    } else {
      outcome_.problems.push_back("figure " + std::to_string(n) + ": " + why);
      out_ << "<div class=\"missing\" role=\"note\"><p><strong>Figure " << n
           << " would be drawn here</strong> (" << escape(f.caption) << "). It is not, because "
           << escape(why) << ".</p><p>What it would show: " << escape(f.description)
           << "</p></div>\n";
    }
    out_ << "<figcaption><strong>Figure " << n << ".</strong> " << escape(f.caption);
    if (!f.data_note.empty()) out_ << " " << escape(f.data_note);
    out_ << "</figcaption>\n";
    for (const auto& t : f.data) table_html(t);
    out_ << "</figure>\n";
  }

 private:
  std::ostream& out_;
  report_outcome& outcome_;
  std::size_t tables_ = 0, figures_ = 0;
};

std::string environment_line(const nlohmann::ordered_json& env) {
  if (!env.is_object()) return {};
  auto text = [&](const char* key) {
    const auto it = env.find(key);
    return it != env.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  std::string s = "mcpilot " + text("version");
  if (!text("git_commit").empty()) s += " (" + text("git_commit") + ")";
  if (!text("end").empty()) s += ", finished " + text("end");
  if (!text("hostname").empty()) s += " on " + text("hostname");
  return s;
}

}  // namespace

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  return out;
}

report_outcome write_page(std::ostream& out, const page& pg, const report_provenance& p) {
  report_outcome outcome;
  writer w(out, outcome);
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta http-equiv=\"Content-Security-Policy\" content=\"" << content_security_policy
      << "\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<meta name=\"generator\" content=\"mcpilot\">\n<title>" << escape(pg.title)
      << "</title>\n<style>" << style_sheet << "</style>\n</head>\n<body>\n<header>\n<h1>"
      << escape(pg.title) << "</h1>\n";
  if (!pg.subtitle.empty()) out << "<p class=\"subtitle\">" << escape(pg.subtitle) << "</p>\n";
  out << "<nav aria-label=\"Contents\"><a href=\"#verdict\">Verdict</a>";
  if (!pg.figures.empty()) out << "<a href=\"#figures\">Figures (" << pg.figures.size() << ")</a>";
  if (!pg.details.empty()) out << "<a href=\"#details\">Details</a>";
  out << "<a href=\"#reproduce\">Reproduce</a></nav>\n</header>\n<main>\n";

  out << "<section id=\"verdict\" aria-labelledby=\"verdict-heading\">\n"
      << "<h2 id=\"verdict-heading\">Verdict</h2>\n<div class=\"" << tone_class(pg.result.mood)
      << "\" role=\"status\"><p><span class=\"headline\">" << escape(pg.result.headline)
      << ".</span> " << escape(sentence(pg.result.summary)) << "</p>\n";
  for (const auto& n : pg.result.notes) out << "<p class=\"note\">" << escape(n) << "</p>\n";
  out << "</div>\n";
  for (const auto& t : pg.verdict_tables) w.table_html(t);
  out << "</section>\n";

  if (!pg.figures.empty()) {
    out << "<section id=\"figures\" aria-labelledby=\"figures-heading\">\n"
        << "<h2 id=\"figures-heading\">Figures</h2>\n";
    const std::string missing =
        gnuplot_available() ? std::string()
                            : "gnuplot is not installed (the Debian package gnuplot-nox draws "
                              "it; every table of this page is complete without it)";
    for (const auto& f : pg.figures) w.figure_html(f, missing);
    out << "</section>\n";
  }

  if (!pg.details.empty()) {
    out << "<section id=\"details\" aria-labelledby=\"details-heading\">\n"
        << "<h2 id=\"details-heading\">Details</h2>\n";
    for (const auto& s : pg.details) {
      out << "<h3>" << escape(s.heading) << "</h3>\n";
      for (const auto& para : s.paragraphs) out << "<p>" << escape(para) << "</p>\n";
      for (const auto& t : s.tables) w.table_html(t);
    }
    out << "</section>\n";
  }

  out << "<section id=\"reproduce\" aria-labelledby=\"reproduce-heading\">\n"
      << "<h2 id=\"reproduce-heading\">Reproduce</h2>\n";
  if (!p.command.empty()) {
    std::string line;
    for (const auto& word : p.command) {
      if (!line.empty()) line += ' ';
      line += shell_word(word);
    }
    out << "<h3>Command</h3>\n<pre><code>" << escape(line) << "</code></pre>\n";
  }
  out << "<h3>Seed</h3>\n<p>";
  if (p.seed)
    out << "<code>" << *p.seed << "</code>" << (p.seed_note.empty() ? "" : ": ")
        << escape(p.seed_note);
  else
    out << escape(p.seed_note.empty() ? "none: the result uses no random numbers" : p.seed_note);
  out << "</p>\n";
  if (!p.settings.empty()) {
    table t{"Settings that shape the result", {"setting", "value"}, {}, {}, true, {}};
    for (const auto& [k, v] : p.settings) t.rows.push_back({k, v});
    w.table_html(t);
  }
  if (!p.config_source.empty() || !p.config_text.empty()) {
    out << "<h3>Config</h3>\n";
    if (!p.config_source.empty())
      out << "<p>File <code>" << escape(p.config_source) << "</code>"
          << (p.config_text.empty() ? "" : ", as it was read:") << "</p>\n";
    if (!p.overrides.empty()) {
      out << "<p>Overrides (<code>--set</code>, applied in order):</p>\n<ul>\n";
      for (const auto& s : p.overrides) out << "<li><code>" << escape(s) << "</code></li>\n";
      out << "</ul>\n";
    }
    if (!p.config_text.empty()) out << "<pre><code>" << escape(p.config_text) << "</code></pre>\n";
  }
  if (p.environment.is_object()) {
    out << "<h3>Environment</h3>\n";
    table t{"Where and how the result was produced", {"field", "value"}, {}, {}, true, {}};
    flatten(p.environment, "", t.rows);
    w.table_html(t);
  }
  out << "</section>\n</main>\n<footer><p>" << escape(environment_line(p.environment))
      << "</p><p>This page is self-contained: it loads nothing from anywhere.</p></footer>\n"
      << "</body>\n</html>\n";
  return outcome;
}

}  // namespace mcpilot::html
