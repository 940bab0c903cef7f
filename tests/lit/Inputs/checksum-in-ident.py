"""checksum-in-ident.py IN.ll OUT.ll NAME: IN with its !llvm.ident string
replaced by the MD5 checksum text of the DIFile named NAME, so that one
metadata string is both a file's checksum and text that reaches the object
(the .comment section)."""
import re
import sys

source, output, name = sys.argv[1:]
text = open(source).read()
checksum = re.search(r'!DIFile\(filename: "%s"[^)]*checksum: "([0-9a-f]{32})"' % re.escape(name),
                     text).group(1)
ident = re.search(r'^!llvm\.ident = !\{!(\d+)\}$', text, re.M).group(1)
text = re.sub(r'^!%s = !\{!"[^"]*"\}$' % ident, '!%s = !{!"%s"}' % (ident, checksum), text,
              flags=re.M)
open(output, "w").write(text)
