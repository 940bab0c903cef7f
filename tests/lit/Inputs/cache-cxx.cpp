// A C++ program whose debug info describes library classes with member
// typedefs and declarations (cache-cxx-debug.test).
#include "cache-cxx.h"

static const std::unordered_set<std::string> keywords = {"for", "while", "if"};

registry::size_type registry::add(const std::string &name) {
  names.push_back(name + "!");
  return names.size();
}

int registry::known(const std::string &name) const {
  return (int)keywords.count(name) + (int)name.size();
}

int main(int argc, char **argv) {
  registry r;
  r.add(argv[0]);
  return r.known(r.names.front()) > 1000;
}
