// The dice check of Orrery's dice page: in the reader's own browser, it
// recomputes every commitment and every roll the page shows from the
// revealed seeds, checks that each step's commitment is the one announced
// after the step before, under dice scheme 2 every part of the orders the
// page shows against its hash, each digest and roll seed, and, once a game
// is over, that every seed (and under scheme 2 every stream's seed and
// secret part's salt) derives from the revealed dice secret. It reads only the page (the data-
// attributes the server wrote beside what a person reads), so it checks
// what the reader sees, and it sends nothing anywhere.
//
// SHA-256 comes from WebCrypto where the browser offers it (pages served
// over HTTPS or from localhost); on plain HTTP it does not, and the small
// SHA-256 below, written from FIPS 180-4, does the work.
(function () {
  "use strict";

  // ---- the page's language ----------------------------------------------
  // The page hands the check its words (pbem/web's dicewords.go, JSON in
  // the data-words of #dice-check): T is a
  // verdict by its English id, whose %s are filled in order; N one chosen
  // by the count n, whose forms follow the page's plural rule. Without
  // the block (or for a word it lacks) the id itself is the English.
  var words = { lang: "en", t: {}, n: {} };
  try {
    var box = document.getElementById("dice-check");
    if (box && box.dataset.words) { words = JSON.parse(box.dataset.words); words.t = words.t || {}; words.n = words.n || {}; }
  } catch (e) { /* English */ }

  function holes(id) { var i = 0; return id.replace(/%s/g, function () { i++; return "{" + i + "}"; }); }
  function fill(text, args) {
    return text.replace(/\{(\d+)\}/g, function (m, i) { var a = args[Number(i) - 1]; return a === undefined ? m : String(a); });
  }
  function T(id) {
    var text = Object.prototype.hasOwnProperty.call(words.t, id) ? words.t[id] : holes(id);
    return fill(text, Array.prototype.slice.call(arguments, 1));
  }
  // formIndex is engine/lang's FormIndex: CLDR's one/few/many for Russian,
  // one/other for English.
  function formIndex(n) {
    n = Math.abs(n);
    if (words.lang === "ru") {
      if (n % 10 === 1 && n % 100 !== 11) { return 0; }
      if (n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14)) { return 1; }
      return 2;
    }
    return n === 1 ? 0 : 1;
  }
  function N(n, one, other) {
    var forms = Object.prototype.hasOwnProperty.call(words.n, one) ? words.n[one] : [holes(one), holes(other)];
    var i = Math.min(formIndex(n), forms.length - 1);
    return fill(forms[i], Array.prototype.slice.call(arguments, 3));
  }

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
        name: T("your browser's own SHA-256 (WebCrypto)"),
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
      name: pureJS ? T("this page's own SHA-256") :
        T("this page's own SHA-256 (your browser offers its own only to pages served over HTTPS)"),
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
  // on every step (data-scheme). Each scheme says how a step's seed follows
  // from its hidden seed HMAC-SHA256(secret, "GAME:EPOCH:STEP"), which seed
  // the step's public rolls are drawn from, how roll n of a die with `sides`
  // faces follows from a seed, and under scheme 2 how the step's inputs
  // (its parts, their digest) and hidden streams are checked. A new scheme
  // is one more entry here (engine/dice has the Go side of each).
  var SPAN = Math.pow(2, 48);

  function sha(h, text) { return h.sha256(utf8(text)).then(hex); }

  // drawV1 is engine/dice's roll: the first 48 bits of SHA-256("SEED:n"),
  // redrawn from "SEED:n:1", "SEED:n:2", ... in the last partial block.
  function drawV1(h, seed, n, sides) {
    var limit = SPAN - SPAN % sides;
    var tryOnce = function (t) {
      var msg = seed + ":" + n + (t > 0 ? ":" + t : "");
      return h.sha256(utf8(msg)).then(function (d) {
        var x = ((((d[0] * 256 + d[1]) * 256 + d[2]) * 256 + d[3]) * 256 + d[4]) * 256 + d[5];
        if (x < limit) { return x % sides + 1; }
        if (t >= 999) { throw new Error(T("no unbiased draw in 1000 tries")); }
        return tryOnce(t + 1);
      });
    };
    return tryOnce(0);
  }

  var schemes = {
    // Scheme 1: the step's seed is the HMAC itself, and every roll of the
    // step, hidden or not, comes from it in one numbering (so a page that
    // leaves hidden rolls out has gaps in its numbers).
    "1": {
      seedOf: function (h, hidden) { return Promise.resolve(hidden); },
      rollSeed: function (h, step) { return Promise.resolve(step.seed); },
      roll: drawV1,
      inputs: false,
      gapless: false
    },
    // Scheme 2 (engine/dice scheme.go): seed S = SHA-256(H); each part's
    // hash is the SHA-256 of its text; the digest D the SHA-256 of the
    // hashes, one a line; the public rolls come from SHA-256("S:D"), the
    // rolls of audience KEY from SHA-256("H:D:KEY"), each numbered from 1;
    // a secret part's salt is the first 32 digits of SHA-256("H:salt:PROMPT").
    "2": {
      seedOf: function (h, hidden) { return sha(h, hidden); },
      rollSeed: function (h, step) { return sha(h, step.seed + ":" + step.digest); },
      streamSeed: function (h, hidden, digest, key) { return sha(h, hidden + ":" + digest + ":" + key); },
      salt: function (h, hidden, prompt) {
        return sha(h, hidden + ":salt:" + prompt).then(function (s) { return s.slice(0, 32); });
      },
      partText: function (part) {
        var text = part.head + "\n";
        if (part.secret) { text += "salt " + part.salt + "\n"; }
        part.lines.forEach(function (l) { text += l + "\n"; });
        return text;
      },
      digest: function (h, hashes) {
        return sha(h, hashes.map(function (x) { return x + "\n"; }).join(""));
      },
      roll: drawV1,
      inputs: true,
      gapless: true
    }
  };

  // hiddenSeed is HMAC-SHA256(secret, "GAME:EPOCH:STEP"), every scheme's.
  function hiddenSeed(h, secret, game, epoch, n) {
    return h.hmac(utf8(secret), utf8(game + ":" + epoch + ":" + n)).then(hex);
  }

  // promptOf is the prompt a part's head names: "ann turn:ann sent" gives
  // "turn:ann".
  function promptOf(head) {
    var words = head.split(" ");
    return words.slice(1, words.length - 1).join(" ");
  }

  // ---- reading the page and checking it --------------------------------
  function readSteps() {
    var out = [];
    var sections = document.querySelectorAll("section.step[data-step]");
    for (var i = 0; i < sections.length; i++) {
      var s = sections[i], d = s.dataset;
      var step = {
        el: s, n: Number(d.step), scheme: d.scheme, seed: d.seed, commitment: d.commitment, next: d.next,
        digest: d.digest, rollSeed: d.rollSeed, hidden: d.hidden || "", parts: [], streams: [], rolls: []
      };
      var parts = s.querySelectorAll("li.part");
      for (var p = 0; p < parts.length; p++) {
        var pd = parts[p].dataset;
        step.parts.push({
          el: parts[p], head: pd.head || "", hash: pd.hash || "", secret: pd.secret !== undefined,
          readable: pd.lines !== undefined, salt: pd.salt || "", linesJSON: pd.lines
        });
      }
      var streams = s.querySelectorAll("[data-key]");
      for (var k = 0; k < streams.length; k++) {
        step.streams.push({ el: streams[k], key: streams[k].dataset.key, seed: streams[k].dataset.seed });
      }
      var rows = s.querySelectorAll("tr[data-n]");
      for (var j = 0; j < rows.length; j++) {
        var r = rows[j];
        var seen = shown(r);
        step.rolls.push({
          el: r, n: seen.n, sides: seen.sides, value: seen.value, data: Number(r.dataset.value),
          stream: r.dataset.stream || ""
        });
      }
      out.push(step);
    }
    return out;
  }

  // shown is a roll as its row shows it to a person: the number, the die
  // and the value in the row's cells (N [stream] | purpose | dS | value),
  // so that the check checks what the reader sees, not only the data-
  // attributes beside it. A row without those cells gives its data.
  function shown(r) {
    var d = r.dataset, c = r.cells;
    var seen = { n: Number(d.n), sides: Number(d.sides), value: Number(d.value) };
    if (c && c.length >= 4) {
      var n = parseInt(c[0].textContent, 10), sides = parseInt(c[2].textContent.replace(/^\s*d/, ""), 10);
      var value = Number(c[3].textContent.trim());
      if (!isNaN(n)) { seen.n = n; }
      if (!isNaN(sides)) { seen.sides = sides; }
      seen.value = c[3].textContent.trim() === "" ? NaN : value;
    }
    return seen;
  }

  function mark(el, ok, text) {
    if (!el) { return; }
    el.textContent = (ok ? "✓ " : "✗ ") + text;
    el.className = (el.className.replace(/\s*\b(ok|bad)\b/g, "") + (ok ? " ok" : " bad")).trim();
  }

  // forEachP runs f on each item in turn, each after the last has settled.
  function forEachP(list, f) {
    return list.reduce(function (p, x, i) { return p.then(function () { return f(x, i); }); }, Promise.resolve());
  }

  // checkInputs checks a scheme-2 step's parts and digest: the hash of
  // every part whose text is on the page, the salt of every secret part
  // once the hidden seed is known, and the digest from the hashes shown.
  function checkInputs(h, scheme, step, hidden, res, fail) {
    return forEachP(step.parts, function (part) {
      var verdict = part.el.querySelector(".verdict");
      var bad = function (text) {
        fail(T("the part %s: %s", "\u201c" + part.head + "\u201d", text));
        mark(verdict, false, text);
        var details = part.el.closest("details");
        if (details) { details.open = true; }
      };
      if (!part.readable) {
        res.sealed++;
        mark(verdict, true, T("sealed: enters by its hash"));
        return null;
      }
      try {
        part.lines = JSON.parse(part.linesJSON);
        if (!Array.isArray(part.lines)) { throw new Error(T("not a list")); }
      } catch (e) {
        bad(T("cannot be read: its lines are garbled"));
        return null;
      }
      return sha(h, scheme.partText(part)).then(function (got) {
        if (got !== part.hash) {
          bad(T("hashes to %s, not %s", got, part.hash));
          return null;
        }
        res.parts++;
        if (!part.secret || !hidden) {
          mark(verdict, true, T("matches its hash"));
          return null;
        }
        return scheme.salt(h, hidden, promptOf(part.head)).then(function (salt) {
          if (salt !== part.salt) {
            bad(T("has the salt %s, the hidden seed gives %s", part.salt, salt));
            return;
          }
          res.salts++;
          mark(verdict, true, T("matches its hash; its salt derives from the hidden seed"));
        });
      });
    }).then(function () {
      if (!step.digest) { fail(T("no digest of the orders on the page")); return null; }
      return scheme.digest(h, step.parts.map(function (p) { return p.hash; })).then(function (d) {
        if (d === step.digest) { res.digests++; } else { fail(T("the parts' hashes give the digest %s, the page says %s", d, step.digest)); }
      });
    });
  }

  // checkStep checks one step: its commitment and the chain, its seed from
  // the dice secret once the game is over, its inputs, its roll seed and
  // stream seeds, and every roll. Each link is checked against what the
  // page shows, so that one changed value is one problem, named where it is.
  function checkStep(h, ctx, step, prev, res, problem) {
    var scheme = schemes[step.scheme];
    var head = step.el.querySelector("[data-verdict]");
    if (!scheme) {
      problem(T("step %s: %s", step.n, T("this page does not know dice scheme %s", JSON.stringify(step.scheme))));
      mark(head, false, T("unknown scheme"));
      return Promise.resolve();
    }
    var stepOK = true;
    var fail = function (text) { stepOK = false; problem(T("step %s: %s", step.n, text)); };
    var hidden = "";
    if (prev && prev.n === step.n - 1 && prev.next && step.commitment) {
      if (prev.next === step.commitment) { res.chained++; } else { fail(T("its commitment is not the one announced after step %s", prev.n)); }
    }
    return sha(h, step.seed).then(function (c) {
      if (step.commitment) {
        if (c === step.commitment) { res.seeds++; } else { fail(T("SHA-256 of the seed is %s, not the commitment %s", c, step.commitment)); }
      }
      if (!ctx.secret) { return null; }
      var tryEpoch = function (e) {
        if (e > ctx.epochs) { fail(T("the seed does not derive from the dice secret")); return null; }
        return hiddenSeed(h, ctx.secret, ctx.game, e, step.n).then(function (hs) {
          return scheme.seedOf(h, hs).then(function (s) {
            if (s !== step.seed) { return tryEpoch(e + 1); }
            res.secretSeeds++;
            hidden = hs;
            if (step.hidden && step.hidden !== hs) { fail(T("the hidden seed on the page is not the one the dice secret gives (%s)", hs)); }
            return null;
          });
        });
      };
      return tryEpoch(0);
    }).then(function () {
      if (hidden || !step.hidden) { return null; }
      // A hidden seed shown without the dice secret: it must still be
      // the one whose SHA-256 is the seed.
      return scheme.seedOf(h, step.hidden).then(function (s) {
        if (s === step.seed) { hidden = step.hidden; res.hiddenSeeds++; } else { fail(T("the hidden seed on the page does not give the seed")); }
      });
    }).then(function () {
      return scheme.inputs ? checkInputs(h, scheme, step, hidden, res, fail) : null;
    }).then(function () {
      return scheme.rollSeed(h, step);
    }).then(function (rollSeed) {
      var seeds = { "": rollSeed };
      if (scheme.inputs) {
        if (rollSeed === step.rollSeed) {
          res.rollSeeds++;
        } else {
          fail(T("the seed and the digest give the roll seed %s, the page says %s", rollSeed, step.rollSeed));
        }
        seeds[""] = step.rollSeed;
      }
      return forEachP(step.streams, function (st) {
        seeds[st.key] = st.seed;
        var verdict = st.el.querySelector(".verdict");
        if (!hidden || !scheme.streamSeed) {
          mark(verdict, true, T("shown to you: its rolls are checked below"));
          return null;
        }
        return scheme.streamSeed(h, hidden, step.digest, st.key).then(function (want) {
          if (want === st.seed) {
            res.streams++;
            mark(verdict, true, T("derives from the hidden seed"));
          } else {
            fail(T("the seed of the dice marked [%s] is not the one the hidden seed gives (%s)", st.key, want));
            mark(verdict, false, T("the hidden seed gives %s", want));
          }
        });
      }).then(function () { return seeds; });
    }).then(function (seeds) {
      var next = {};
      return forEachP(step.rolls, function (r) {
        var verdict = r.el.querySelector(".verdict");
        var label = T("roll #%s", r.n) + (r.stream ? " [" + r.stream + "]" : "");
        var seed = seeds[r.stream];
        if (seed === undefined) {
          fail(T("%s: no seed of its dice on the page", label));
          mark(verdict, false, T("no seed"));
          return null;
        }
        if (scheme.gapless) {
          next[r.stream] = (next[r.stream] || 0) + 1;
          if (r.n !== next[r.stream]) {
            fail(T("%s comes where roll #%s should: a roll is missing or out of place", label, next[r.stream]));
            next[r.stream] = r.n;
          }
        }
        return scheme.roll(h, seed, r.n, r.sides).then(function (v) {
          res.rolls++;
          if (v === r.value && r.value !== r.data) {
            fail(T("%s: the page shows %s but its data says %s", label, r.value, r.data));
            mark(verdict, false, T("the data beside it says %s", r.data));
          } else if (v === r.value) {
            mark(verdict, true, T("verified"));
          } else {
            fail(T("%s (d%s): the seed gives %s, the page says %s", label, r.sides, v, r.value));
            mark(verdict, false, T("the seed gives %s", v));
          }
          ctx.progress(res);
        });
      });
    }).then(function () {
      mark(head, stepOK, stepOK ? T("verified") : T("does not check out"));
    });
  }

  // check verifies the whole page and resolves to a summary: {ok, steps,
  // seeds, chained, secretSeeds, hiddenSeeds, parts, sealed, salts,
  // digests, rollSeeds, streams, rolls, problems: [...], engine}.
  function check(options) {
    options = options || {};
    var h = engine(options.pureJS);
    var box = document.getElementById("dice-check");
    var ctx = {
      game: box ? box.dataset.game : "", epochs: box ? Number(box.dataset.epoch || 0) : 0,
      secret: box ? box.dataset.secret : "", progress: options.progress || function () {}
    };
    var steps = readSteps();
    var res = {
      ok: true, steps: steps.length, seeds: 0, chained: 0, secretSeeds: 0, hiddenSeeds: 0, parts: 0, sealed: 0,
      salts: 0, digests: 0, rollSeeds: 0, streams: 0, rolls: 0, problems: [], engine: h.name
    };
    var problem = function (text) { res.ok = false; res.problems.push(text); };
    return forEachP(steps, function (step, i) {
      return checkStep(h, ctx, step, i > 0 ? steps[i - 1] : null, res, problem);
    }).then(function () { return res; });
  }

  // summary says what was checked, for people.
  function summary(res) {
    var parts = [N(res.steps, "%s of %s seed matches its commitment", "%s of %s seeds match their commitments", res.seeds, res.steps)];
    if (res.chained) { parts.push(N(res.chained, "%s commitment chains from step to step", "%s commitments chain from step to step", res.chained)); }
    if (res.parts || res.sealed) {
      parts.push(N(res.parts, "%s part of the orders matches its hash", "%s parts of the orders match their hashes", res.parts) +
        (res.sealed ? " (" + N(res.sealed, "%s sealed one enters by its hash alone", "%s sealed ones enter by their hashes alone", res.sealed) + ")" : ""));
    }
    if (res.digests) { parts.push(N(res.digests, "%s digest of the orders", "%s digests of the orders", res.digests)); }
    if (res.rollSeeds) { parts.push(N(res.rollSeeds, "%s roll seed follows from seed and digest", "%s roll seeds follow from seed and digest", res.rollSeeds)); }
    parts.push(N(res.rolls, "%s roll recomputed", "%s rolls recomputed", res.rolls));
    if (res.secretSeeds) { parts.push(N(res.secretSeeds, "%s seed derives from the dice secret", "%s seeds derive from the dice secret", res.secretSeeds)); }
    if (res.hiddenSeeds) { parts.push(N(res.hiddenSeeds, "%s hidden seed gives its seed", "%s hidden seeds give their seeds", res.hiddenSeeds)); }
    if (res.streams) { parts.push(N(res.streams, "%s seed of hidden dice derives from the hidden seeds", "%s seeds of hidden dice derive from the hidden seeds", res.streams)); }
    if (res.salts) { parts.push(N(res.salts, "%s salt derives from the hidden seeds", "%s salts derive from the hidden seeds", res.salts)); }
    if (res.ok) {
      return T("All verified with %s: %s. Every roll on this page is verified.", res.engine, parts.join(", "));
    }
    var shown = res.problems.slice(0, 10);
    if (res.problems.length > shown.length) { shown.push(T("and %s more", res.problems.length - shown.length)); }
    return N(res.problems.length, "%s problem found with %s: %s.", "%s problems found with %s: %s.", res.problems.length, res.engine, shown.join("; "));
  }

  function start() {
    var button = document.getElementById("check-button");
    var out = document.getElementById("check-result");
    if (!button || !out) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      button.disabled = true;
      out.dataset.state = "running";
      out.textContent = T("Checking…");
      check({
        pureJS: window.orreryDicePureJS === true,
        progress: function (res) { if (res.rolls % 50 === 0) { out.textContent = N(res.rolls, "Checking… %s roll so far.", "Checking… %s rolls so far.", res.rolls); } }
      }).then(function (res) {
        out.dataset.state = res.ok ? "ok" : "failed";
        out.dataset.rolls = String(res.rolls);
        out.textContent = summary(res);
      }, function (err) {
        out.dataset.state = "error";
        out.textContent = T("The check could not run: %s", err.message);
      }).then(function () { button.disabled = false; });
    });
  }

  // findReceipt finds the part whose hash is a receipt (what the ack of
  // the player's orders gave, or what sha256sum printed: "HASH  -"), opens
  // its list and marks it; the check above verifies that the hash enters
  // its step's digest, which the roll seed mixes.
  function findReceipt(text) {
    var want = String(text).trim().toLowerCase().split(/\s+/)[0] || "";
    if (!/^[0-9a-f]{64}$/.test(want)) { return { found: false, text: T("Paste a receipt (64 hex digits) to find it.") }; }
    var old = document.querySelectorAll("li.part.found");
    for (var i = 0; i < old.length; i++) { old[i].classList.remove("found"); }
    var parts = document.querySelectorAll("li.part[data-hash]");
    for (var j = 0; j < parts.length; j++) {
      if (parts[j].dataset.hash !== want) { continue; }
      var part = parts[j], step = part.closest("section.step");
      var details = part.closest("details");
      if (details) { details.open = true; }
      part.classList.add("found");
      if (part.scrollIntoView) { part.scrollIntoView({ block: "center" }); }
      return { found: true, text: T("Found: step %s, %s. The check above verifies that its hash enters the step's digest, which the roll seed mixes.",
        step ? step.dataset.step : "?", part.dataset.head) };
    }
    return { found: false, text: T("No part of the orders on this page has the receipt %s.", want) };
  }

  function startReceipts() {
    var box = document.getElementById("receipt-finder");
    var input = document.getElementById("receipt-input");
    var button = document.getElementById("receipt-button");
    var out = document.getElementById("receipt-result");
    if (!box || !input || !button || !out) { return; }
    box.hidden = false;
    var run = function () {
      var r = findReceipt(input.value);
      out.dataset.state = r.found ? "found" : "missing";
      out.textContent = r.text;
    };
    button.addEventListener("click", run);
    input.addEventListener("keydown", function (e) { if (e.key === "Enter") { run(); } });
  }

  // For tests and the curious (the browser's console).
  window.orreryDice = { sha256js: sha256js, hmacjs: hmacjs, hex: hex, check: check, schemes: schemes, findReceipt: findReceipt };

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
    document.addEventListener("DOMContentLoaded", startReceipts);
  } else {
    start();
    startReceipts();
  }
})();
