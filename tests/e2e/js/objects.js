// Objects, closures, prototypes, exceptions, JSON.
function Counter(start) { this.n = start; }
Counter.prototype.next = function () { return this.n++; };
var c = new Counter(5), seen = [];
for (var i = 0; i < 5; i++) seen.push(c.next());
print('counter', seen.join(','));
function makeAdders() { var fs = []; for (var i = 0; i < 4; i++) fs.push((function (k) { return function (x) { return x + k; }; })(i)); return fs; }
print('adders', makeAdders().map(function (f) { return f(10); }).join(' '));
try { null.boom(); } catch (e) { print('caught', e.name); }
try { throw new RangeError('custom'); } catch (e) { print('caught', e.name, e.message); }
var doc = { name: 'mtpc', list: [1, 2.5, 'three', null, true], nested: { a: { b: [ { c: 1 } ] } } };
var text = JSON.stringify(doc);
print('json', text);
print('round trip', JSON.stringify(JSON.parse(text)) === text);
print('keys', Object.keys(doc).sort().join('|'));
var frozen = Object.freeze({ x: 1 });
print('frozen', Object.isFrozen(frozen));
print('getter', Object.defineProperty({}, 'v', { get: function () { return 42; } }).v);
