// The dice check of Orrery's dice page: in the reader's own browser, it
// recomputes every commitment and every roll the page shows from the
// revealed seeds, checks that each step's commitment is the one announced
// after the step before, and, once a game is over, that every seed derives
// from the revealed dice secret. It reads only the page (the data-
// attributes the server wrote beside what a person reads), so it checks
// what the reader sees, and it sends nothing anywhere.
//
// SHA-256 comes from WebCrypto where the browser offers it (pages served
// over HTTPS or from localhost); on plain HTTP it does not, and the small
// SHA-256 below, written from FIPS 180-4, does the work.
(function () {
  "use strict";

  // ---- SHA-256 and HMAC-SHA256 in plain JavaScript --------------------
  var K = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
  ];

  function rotr(x, n) { return (x >>> n) | (x << (32 - n)); }

  // sha256js returns the SHA-256 of a Uint8Array as a Uint8Array of 32.
  function sha256js(msg) {
    var len = msg.length;
    var padded = new Uint8Array(((len + 9 + 63) >> 6) << 6);
    padded.set(msg);
    padded[len] = 0x80;
    var bits = len * 8;
    var view = new DataView(padded.buffer);
    view.setUint32(padded.length - 8, Math.floor(bits / 0x100000000));
    view.setUint32(padded.length - 4, bits >>> 0);
    var h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    var w = new Array(64);
    for (var off = 0; off < padded.length; off += 64) {
      var i;
      for (i = 0; i < 16; i++) { w[i] = view.getUint32(off + i * 4); }
      for (i = 16; i < 64; i++) {
        var s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
        var s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
        w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
      }
      var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
      for (i = 0; i < 64; i++) {
        var S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
        var ch = (e & f) ^ (~e & g);
        var t1 = (k + S1 + ch + K[i] + w[i]) | 0;
        var S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
        var maj = (a & b) ^ (a & c) ^ (b & c);
        var t2 = (S0 + maj) | 0;
        k = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
      }
      h[0] = (h[0] + a) | 0; h[1] = (h[1] + b) | 0; h[2] = (h[2] + c) | 0; h[3] = (h[3] + d) | 0;
      h[4] = (h[4] + e) | 0; h[5] = (h[5] + f) | 0; h[6] = (h[6] + g) | 0; h[7] = (h[7] + k) | 0;
    }
    var out = new Uint8Array(32);
    var ov = new DataView(out.buffer);
    for (var j = 0; j < 8; j++) { ov.setUint32(j * 4, h[j] >>> 0); }
    return out;
  }

  function hmacjs(key, msg) {
    if (key.length > 64) { key = sha256js(key); }
    var ipad = new Uint8Array(64 + msg.length), opad = new Uint8Array(64 + 32);
    for (var i = 0; i < 64; i++) {
      var kb = i < key.length ? key[i] : 0;
      ipad[i] = kb ^ 0x36;
      opad[i] = kb ^ 0x5c;
    }
    ipad.set(msg, 64);
    opad.set(sha256js(ipad), 64);
    return sha256js(opad);
  }

  // ---- one SHA-256 for the check: WebCrypto or the above ---------------
  function engine(pureJS) {
    var subtle = !pureJS && window.isSecureContext && window.crypto && window.crypto.subtle;
    if (subtle) {
      return {
        name: "your browser's own SHA-256 (WebCrypto)",
        sha256: function (bytes) {
          return subtle.digest("SHA-256", bytes).then(function (b) { return new Uint8Array(b); });
        },
        hmac: function (key, msg) {
          return subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
            .then(function (k) { return subtle.sign("HMAC", k, msg); })
            .then(function (b) { return new Uint8Array(b); });
        }
      };
    }
    return {
      name: pureJS ? "this page's own SHA-256" :
        "this page's own SHA-256 (your browser offers its own only to pages served over HTTPS)",
      sha256: function (bytes) { return Promise.resolve(sha256js(bytes)); },
      hmac: function (key, msg) { return Promise.resolve(hmacjs(key, msg)); }
    };
  }

  function utf8(s) { return new TextEncoder().encode(s); }

  function hex(bytes) {
    var s = "";
    for (var i = 0; i < bytes.length; i++) { s += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16); }
    return s;
  }

  // ---- dice schemes ------------------------------------------------------
  // A game records the scheme its dice were made with, and the page puts it
  // on every step (data-scheme). Each scheme says how a step's seed is
  // checked against its commitment, which seed the step's rolls are drawn
  // from, how roll n of a die with `sides` faces follows from that seed, and
  // how a seed derives from the game's dice secret. A new scheme is one
  // more entry here.
  var SPAN = Math.pow(2, 48);

  // drawV1 is engine/dice's roll: the first 48 bits of SHA-256("SEED:n"),
  // redrawn from "SEED:n:1", "SEED:n:2", ... in the last partial block.
  function drawV1(h, seed, n, sides) {
    var limit = SPAN - SPAN % sides;
    var tryOnce = function (t) {
      var msg = seed + ":" + n + (t > 0 ? ":" + t : "");
      return h.sha256(utf8(msg)).then(function (d) {
        var x = ((((d[0] * 256 + d[1]) * 256 + d[2]) * 256 + d[3]) * 256 + d[4]) * 256 + d[5];
        if (x < limit) { return x % sides + 1; }
        if (t >= 999) { throw new Error("no unbiased draw in 1000 tries"); }
        return tryOnce(t + 1);
      });
    };
    return tryOnce(0);
  }

  var schemes = {
    "1": {
      commitment: function (h, step) { return h.sha256(utf8(step.seed)).then(hex); },
      rollSeed: function (h, step) { return Promise.resolve(step.seed); },
      roll: drawV1,
      seedOf: function (h, secret, game, epoch, n) {
        return h.hmac(utf8(secret), utf8(game + ":" + epoch + ":" + n)).then(hex);
      }
    }
  };

  // ---- reading the page and checking it --------------------------------
  function readSteps() {
    var out = [];
    var sections = document.querySelectorAll("section.step[data-step]");
    for (var i = 0; i < sections.length; i++) {
      var s = sections[i];
      var step = {
        el: s, n: Number(s.dataset.step), scheme: s.dataset.scheme, seed: s.dataset.seed,
        commitment: s.dataset.commitment, next: s.dataset.next, rolls: []
      };
      var rows = s.querySelectorAll("tr[data-n]");
      for (var j = 0; j < rows.length; j++) {
        var r = rows[j];
        step.rolls.push({ el: r, n: Number(r.dataset.n), sides: Number(r.dataset.sides), value: Number(r.dataset.value) });
      }
      out.push(step);
    }
    return out;
  }

  function mark(el, ok, text) {
    if (!el) { return; }
    el.textContent = (ok ? "✓ " : "✗ ") + text;
    el.className = (el.className.replace(/\s*\b(ok|bad)\b/g, "") + (ok ? " ok" : " bad")).trim();
  }

  // check verifies the whole page and resolves to a summary:
  // {ok, steps, rolls, seeds, chained, secretSeeds, problems: [...], engine}.
  function check(options) {
    options = options || {};
    var h = engine(options.pureJS);
    var box = document.getElementById("dice-check");
    var game = box ? box.dataset.game : "";
    var epochs = box ? Number(box.dataset.epoch || 0) : 0;
    var secret = box ? box.dataset.secret : "";
    var steps = readSteps();
    var res = { ok: true, steps: steps.length, rolls: 0, seeds: 0, chained: 0, secretSeeds: 0, problems: [], engine: h.name };
    var problem = function (text) { res.ok = false; res.problems.push(text); };
    var progress = options.progress || function () {};
    var chain = Promise.resolve();
    steps.forEach(function (step, i) {
      chain = chain.then(function () {
        var scheme = schemes[step.scheme];
        var head = step.el.querySelector("[data-verdict]");
        if (!scheme) {
          problem("step " + step.n + ": this page does not know dice scheme " + JSON.stringify(step.scheme));
          mark(head, false, "unknown scheme");
          return;
        }
        var stepOK = true;
        var fail = function (text) { stepOK = false; problem("step " + step.n + ": " + text); };
        var prev = i > 0 ? steps[i - 1] : null;
        if (prev && prev.n === step.n - 1 && prev.next && step.commitment) {
          if (prev.next === step.commitment) { res.chained++; } else { fail("its commitment is not the one announced after step " + prev.n); }
        }
        return scheme.commitment(h, step).then(function (c) {
          if (step.commitment) {
            if (c === step.commitment) { res.seeds++; } else { fail("SHA-256 of the seed is " + c + ", not the commitment " + step.commitment); }
          }
          if (!secret) { return null; }
          var tryEpoch = function (e) {
            if (e > epochs) { fail("the seed does not derive from the dice secret"); return null; }
            return scheme.seedOf(h, secret, game, e, step.n).then(function (s) {
              if (s === step.seed) { res.secretSeeds++; return null; }
              return tryEpoch(e + 1);
            });
          };
          return tryEpoch(0);
        }).then(function () {
          return scheme.rollSeed(h, step);
        }).then(function (seed) {
          var rolls = Promise.resolve();
          step.rolls.forEach(function (r) {
            rolls = rolls.then(function () {
              return scheme.roll(h, seed, r.n, r.sides).then(function (v) {
                res.rolls++;
                var verdict = r.el.querySelector(".verdict");
                if (v === r.value) {
                  mark(verdict, true, "verified");
                } else {
                  fail("roll #" + r.n + " (d" + r.sides + "): the seed gives " + v + ", the page says " + r.value);
                  mark(verdict, false, "the seed gives " + v);
                }
                progress(res);
              });
            });
          });
          return rolls;
        }).then(function () {
          mark(head, stepOK, stepOK ? "verified" : "does not check out");
        });
      });
    });
    return chain.then(function () { return res; });
  }

  function summary(res) {
    var parts = [res.seeds + " of " + res.steps + " seeds match their commitments",
      res.rolls + " rolls recomputed"];
    if (res.chained) { parts.push(res.chained + " commitments chain from step to step"); }
    if (res.secretSeeds) { parts.push(res.secretSeeds + " seeds derive from the dice secret"); }
    if (res.ok) {
      return "All verified with " + res.engine + ": " + parts.join(", ") + ". Every roll on this page is verified.";
    }
    return res.problems.length + " problem" + (res.problems.length === 1 ? "" : "s") + " found with " + res.engine + ": " +
      res.problems.join("; ") + ".";
  }

  function start() {
    var button = document.getElementById("check-button");
    var out = document.getElementById("check-result");
    if (!button || !out) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      button.disabled = true;
      out.dataset.state = "running";
      out.textContent = "Checking…";
      check({
        pureJS: window.orreryDicePureJS === true,
        progress: function (res) { if (res.rolls % 50 === 0) { out.textContent = "Checking… " + res.rolls + " rolls so far."; } }
      }).then(function (res) {
        out.dataset.state = res.ok ? "ok" : "failed";
        out.dataset.rolls = String(res.rolls);
        out.textContent = summary(res);
      }, function (err) {
        out.dataset.state = "error";
        out.textContent = "The check could not run: " + err.message;
      }).then(function () { button.disabled = false; });
    });
  }

  // For tests and the curious (the browser's console).
  window.orreryDice = { sha256js: sha256js, hmacjs: hmacjs, hex: hex, check: check, schemes: schemes };

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
