// Strings, regular expressions, numbers, dates.
var s = 'The quick brown fox jumps over the lazy dog';
print(s.toUpperCase());
print(s.split(' ').reverse().join(' '));
print(s.replace(/o(\w)/g, function (m, g) { return '[' + g + ']'; }));
print(/(\w+)\s(\w+)/.exec(s).slice(1).join('/'));
print('match count', s.match(/[aeiou]/g).length);
print('index', s.indexOf('fox'), s.lastIndexOf('o'), s.charCodeAt(4));
print((123.456).toFixed(2), (0.000001234).toExponential(3), (255).toString(16), parseInt('ff', 16), parseFloat('3.25e2'));
print(Math.sqrt(2).toPrecision(10), Math.pow(2, 53), Math.floor(-3.5), Math.round(2.5), Math.max(1, 9, 3));
print(encodeURIComponent('a b&c=d/é'), decodeURIComponent('%E2%9C%93'));
var d = new Date(Date.UTC(2020, 1, 29, 12, 30, 0));
print(d.toISOString(), d.getUTCDay(), Date.parse('2001-02-03T04:05:06Z'));
var words = {}; s.toLowerCase().split(' ').forEach(function (w) { words[w] = (words[w] || 0) + 1; });
print(JSON.stringify(words));
print(String.fromCharCode(72, 105), 'abc'.split('').map(function (ch) { return ch.charCodeAt(0); }).join('-'));
