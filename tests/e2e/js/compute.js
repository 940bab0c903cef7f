// Arrays, sorting, recursion, number crunching.
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
print('fib', fib(22));
var primes = [];
for (var n = 2; primes.length < 200; n++) {
  var ok = true;
  for (var j = 0; j < primes.length && primes[j] * primes[j] <= n; j++) if (n % primes[j] === 0) { ok = false; break; }
  if (ok) primes.push(n);
}
print('primes', primes.slice(-5).join(','), primes.reduce(function (a, b) { return a + b; }, 0));
var seed = 12345, arr = [];
for (var i = 0; i < 2000; i++) { seed = (seed * 1103515245 + 12345) % 2147483648; arr.push(seed % 10000); }
arr.sort(function (a, b) { return a - b; });
print('sorted', arr[0], arr[999], arr[1999], arr.filter(function (x) { return x % 7 === 0; }).length);
var m = [];
for (var r = 0; r < 30; r++) { m.push([]); for (var c = 0; c < 30; c++) m[r].push((r * 31 + c * 17) % 11 - 5); }
var t = 0;
for (var a = 0; a < 30; a++) for (var b = 0; b < 30; b++) { var s = 0; for (var k = 0; k < 30; k++) s += m[a][k] * m[k][b]; t += s * (a + 1) - b; }
print('matrix', t);
var buf = new Uint8Array(256); for (var q = 0; q < 256; q++) buf[q] = (q * 7) & 255;
var h = 0; for (var q = 0; q < 256; q++) h = ((h << 5) - h + buf[q]) | 0;
print('typed array hash', h);
print('mandel-ish', (function () { var cnt = 0; for (var y = -1; y <= 1; y += 0.1) for (var x = -2; x <= 1; x += 0.05) { var zr = 0, zi = 0, it = 0; while (zr * zr + zi * zi < 4 && it < 50) { var tmp = zr * zr - zi * zi + x; zi = 2 * zr * zi + y; zr = tmp; it++; } cnt += it; } return cnt; })());
