// EDIT-HEADER
#include <list>
#include <string>
#include <unordered_set>

struct registry {
  typedef std::list<std::string> list_type;
  typedef list_type::size_type size_type;
  list_type names;
  size_type add(const std::string &name);
  int known(const std::string &name) const;
};
