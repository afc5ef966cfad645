/* referee report: the overview and the replay viewer. It draws what the referee computed and knows no rule and no
   game: the overview rows and standings come as JSON, each game's steps as pictures (plain data the game's picture
   module made from the referee's own state), deflated and base64-encoded, inflated only when the game is opened, and
   drawn by RefereePicture (picture.js, inlined before this script; the live page draws with it too). Every text
   from a record is written with textContent, never parsed as HTML. */
(function () {
  'use strict';

  var el = RefereePicture.el, svg = RefereePicture.svg, clear = RefereePicture.clear;
  var seatClass = RefereePicture.seatClass;

  function $(id) { return document.getElementById(id); }

  var data = JSON.parse($('referee-overview').textContent);
  var games = data.games;

  // ------------------------------------------------------------------------------------------------- overview
  var verdictOrder = {};
  data.verdicts.forEach(function (v, i) { verdictOrder[v] = i; });

  function scoresText(g) {
    if (!g.scores) return '';
    return Object.keys(g.scores).map(function (name) { return name + ' ' + g.scores[name]; }).join(' · ');
  }

  function problemText(g) {
    if (!g.code) return '';
    return '[' + g.code + '] line ' + g.line + ': ' + g.message;
  }

  function expectText(g) {
    if (g.met === undefined) return '';
    return g.met ? '✓ as expected' : '✗ expected ' + (g.expected || '');
  }

  // The rows live as data; only the current page of them is in the document, so a thousand games sort and filter
  // as fast as a hundred.
  var tbody = $('game-rows');
  var rows = games.map(function (g) {
    return { game: g, tr: null, text: [g.file, g.game, g.players.join(' '), g.ruleset, g.verdict, g.winners.join(' '),
      problemText(g), g.expected || '', g.event || ''].join('\n').toLowerCase() };
  });
  var visible = rows.slice();
  var pageSize = 100, pageNumber = 0;

  function rowElement(row) {
    if (row.tr) return row.tr;
    var g = row.game;
    var tr = el('tr');
    tr.dataset.id = g.id;
    tr.dataset.verdict = g.verdict;
    var link = el('a', null, g.id + 1);
    link.href = '#game=' + g.id;
    var cells = [link, null, g.game, g.players.join(', '), g.ruleset, null, g.winners.join(' & '), scoresText(g),
      problemText(g), expectText(g)];
    cells.forEach(function (content, i) {
      var td = el('td');
      if (i === 1) {
        td.className = 'file-cell';
        var cut = g.file.lastIndexOf('/') + 1;
        var box = el('div', 'file');
        box.appendChild(el('span', 'dir', g.file.slice(0, cut)));
        box.appendChild(el('span', 'name', g.file.slice(cut)));
        box.appendChild(el('span', 'index', '#' + g.index));
        td.appendChild(box);
        td.title = g.file + ' #' + g.index + ' (line ' + g.first_line + ')';
      } else if (i === 5) {
        td.appendChild(el('span', 'verdict verdict-' + g.verdict, g.verdict));
      } else if (content instanceof Node) {
        td.appendChild(content);
      } else {
        td.textContent = content;
        if (i === 8 && content) { td.title = content; td.className = 'problem'; }
        if (i === 6 && g.how) td.title = g.how;
        if (i === 7) td.className = 'scores-cell';
        if (i === 9 && content) {
          td.className = g.met ? 'met' : 'unmet';
          td.title = 'Expect: ' + (g.expected || '');
        }
      }
      tr.appendChild(td);
    });
    row.tr = tr;
    return tr;
  }

  function renderPage() {
    var pages = Math.max(1, Math.ceil(visible.length / pageSize));
    pageNumber = Math.max(0, Math.min(pages - 1, pageNumber));
    var frag = document.createDocumentFragment();
    visible.slice(pageNumber * pageSize, (pageNumber + 1) * pageSize).forEach(function (row) {
      frag.appendChild(rowElement(row));
    });
    clear(tbody);
    tbody.appendChild(frag);
    $('page-label').textContent = 'page ' + (pageNumber + 1) + ' of ' + pages;
    $('page-prev').disabled = pageNumber === 0;
    $('page-next').disabled = pageNumber >= pages - 1;
    $('pager').hidden = pages === 1;
  }
  $('page-prev').addEventListener('click', function () { pageNumber -= 1; renderPage(); });
  $('page-next').addEventListener('click', function () { pageNumber += 1; renderPage(); });
  $('page-size').addEventListener('change', function () {
    pageSize = Number($('page-size').value) || 100;
    pageNumber = 0;
    renderPage();
  });

  tbody.addEventListener('click', function (event) {
    var tr = event.target.closest('tr');
    if (!tr || event.target.closest('a')) return;
    location.hash = '#game=' + tr.dataset.id;
  });

  $('title').textContent = data.title;
  $('subtitle').textContent = games.length + ' game(s) from ' + (data.arguments.join(' ') || 'standard input') +
    ' — referee ' + data.version;

  var counts = {};
  games.forEach(function (g) { counts[g.verdict] = (counts[g.verdict] || 0) + 1; });
  var verdictSelect = $('filter-verdict');
  data.verdicts.forEach(function (v) {
    if (!counts[v]) return;
    var option = el('option', null, v + ' (' + counts[v] + ')');
    option.value = v;
    verdictSelect.appendChild(option);
    var chip = el('button', 'chip verdict verdict-' + v, counts[v] + ' ' + v);
    chip.type = 'button';
    chip.dataset.verdict = v;
    chip.title = 'show only the ' + v + ' games (again: all)';
    chip.addEventListener('click', function () {
      verdictSelect.value = verdictSelect.value === v ? '' : v;
      filter();
    });
    $('totals').appendChild(chip);
  });
  var gameSelect = $('filter-game');
  Array.from(new Set(games.map(function (g) { return g.game; }))).sort().forEach(function (title) {
    var option = el('option', null, title);
    option.value = title;
    gameSelect.appendChild(option);
  });

  var sortState = { key: 'id', dir: 1 };

  function filter() {
    var words = $('filter-text').value.toLowerCase().split(/\s+/).filter(Boolean);
    var verdict = verdictSelect.value;
    var title = gameSelect.value;
    var perVerdict = {};
    visible = sorted(rows).filter(function (row) {
      var g = row.game;
      var shown = (!verdict || g.verdict === verdict) && (!title || g.game === title) &&
        words.every(function (w) { return row.text.indexOf(w) >= 0; });
      if (shown) perVerdict[g.verdict] = (perVerdict[g.verdict] || 0) + 1;
      return shown;
    });
    var parts = data.verdicts.filter(function (v) { return perVerdict[v]; })
      .map(function (v) { return perVerdict[v] + ' ' + v; });
    $('shown').textContent = visible.length + ' of ' + games.length + ' shown' +
      (parts.length ? ': ' + parts.join(', ') : '');
    Array.prototype.forEach.call($('totals').children, function (chip) {
      chip.classList.toggle('selected', chip.dataset.verdict === verdict);
    });
    pageNumber = 0;
    renderPage();
  }
  $('filter-text').addEventListener('input', filter);
  verdictSelect.addEventListener('change', filter);
  gameSelect.addEventListener('change', filter);

  var collator = new Intl.Collator(undefined, { numeric: true });
  var sortKeys = {
    id: function (g) { return g.id; },
    file: function (g) { return g.file + '\u0000' + String(1e9 + g.index); },
    game: function (g) { return g.game; },
    players: function (g) { return g.players.join(', '); },
    ruleset: function (g) { return g.ruleset; },
    verdict: function (g) { return verdictOrder[g.verdict]; },
    winners: function (g) { return g.winners.join(' '); },
    scores: function (g) {
      return g.scores ? Math.max.apply(null, Object.keys(g.scores).map(function (k) { return g.scores[k]; })) : -1;
    },
    problem: function (g) { return g.code ? g.code + '\u0000' + String(1e9 + g.line) : '\uffff'; },
    expected: function (g) { return expectText(g) || '\uffff'; }
  };

  function sorted(list) {
    var keyOf = sortKeys[sortState.key], dir = sortState.dir;
    var keyed = list.map(function (row) { return { row: row, key: keyOf(row.game) }; });
    keyed.sort(function (a, b) {
      var x = a.key, y = b.key;
      var c = typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x), String(y));
      return c * dir || a.row.game.id - b.row.game.id;
    });
    return keyed.map(function (item) { return item.row; });
  }

  function sortBy(key) {
    sortState = { key: key, dir: sortState.key === key ? -sortState.dir : 1 };
    visible = sorted(visible);
    pageNumber = 0;
    renderPage();
    document.querySelectorAll('#games th').forEach(function (th) {
      th.setAttribute('aria-sort', th.dataset.sort === key ? (sortState.dir > 0 ? 'ascending' : 'descending') : 'none');
    });
  }
  document.querySelectorAll('#games th').forEach(function (th) {
    th.tabIndex = 0;
    th.title = 'sort by ' + th.textContent + ' (again: reverse)';
    th.addEventListener('click', function () { sortBy(th.dataset.sort); });
    th.addEventListener('keydown', function (event) {
      if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); sortBy(th.dataset.sort); }
    });
  });
  filter();

  // ------------------------------------------------------------------------------------------------ standings
  (function standings() {
    var byGame = {};
    data.standings.forEach(function (s) { (byGame[s.game] = byGame[s.game] || []).push(s); });
    var box = $('standings');
    Object.keys(byGame).sort().forEach(function (title) {
      box.appendChild(el('h3', null, title));
      var table = el('table', 'standing');
      table.dataset.game = title;
      var head = el('tr');
      ['player', 'games', 'valid', 'wins', 'shared', 'points', 'points / valid game'].forEach(function (h) {
        head.appendChild(el('th', null, h));
      });
      var thead = el('thead');
      thead.appendChild(head);
      table.appendChild(thead);
      var body = el('tbody');
      byGame[title].forEach(function (s) {
        var tr = el('tr');
        tr.dataset.player = s.player;
        var average = s.points === null || !s.finished ? '–' : (s.points / s.finished).toFixed(1);
        [s.player, s.games, s.finished, s.wins, s.shared, s.points === null ? '–' : s.points, average]
          .forEach(function (v, i) {
            var td = el('td', null, v);
            if (i > 0) td.className = 'num';
            tr.appendChild(td);
          });
        body.appendChild(tr);
      });
      table.appendChild(body);
      box.appendChild(table);
    });
    if (!data.standings.length) box.appendChild(el('p', 'hint', 'No game got past its tag section.'));
  })();

  // --------------------------------------------------------------------------------------------------- loading
  var cache = new Map();

  function base64Bytes(text) {
    if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(text);
    var binary = atob(text);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  function load(id) {
    if (cache.has(id)) return cache.get(id);
    var node = $('game-' + id);
    var promise;
    if (!node) {
      promise = Promise.reject(new Error('no details for game ' + id));
    } else if (typeof DecompressionStream !== 'function') {
      promise = Promise.reject(new Error('this browser cannot inflate the game data (no DecompressionStream)'));
    } else {
      var stream = new Blob([base64Bytes(node.textContent.trim())]).stream()
        .pipeThrough(new DecompressionStream('deflate'));
      promise = new Response(stream).text().then(JSON.parse);
    }
    cache.set(id, promise);
    if (cache.size > 30) cache.delete(cache.keys().next().value);
    return promise;
  }

  // ---------------------------------------------------------------------------------------------------- viewer
  var view = null; // {id, row, detail, states, step, lines, current}

  function expand(steps) {
    var current = {};
    return steps.map(function (step) {
      current = Object.assign({}, current, step.d);
      if (step.x) step.x.forEach(function (key) { delete current[key]; });
      return current;
    });
  }

  function verdictLine(g) {
    var box = $('game-verdict');
    clear(box);
    box.className = 'game-verdict verdict-' + g.verdict;
    var text = g.verdict;
    if (g.code) {
      text += ' at line ' + g.line + ', column ' + g.column + ' [' + g.code + '] ' + g.message;
    } else if (g.winners.length) {
      text += ' — ' + g.winners.join(' & ') + (g.winners.length > 1 ? ' share the win' : ' wins');
      if (g.scores) text += ' (' + scoresText(g) + ')';
      if (g.how) text += '; ' + g.how;
    } else if (g.verdict === 'unfinished') {
      text += ' after ' + g.statements + ' statement(s)';
    }
    box.appendChild(el('span', null, text));
    if (g.met !== undefined) box.appendChild(el('span', g.met ? 'met' : 'unmet', ' — Expect ' + (g.expected || '') + (g.met ? ': as expected' : ': NOT as expected')));
  }

  function renderRecord(detail, g) {
    var box = $('record');
    clear(box);
    var lines = [];
    var first = detail.text.first;
    var frag = document.createDocumentFragment();
    detail.text.lines.forEach(function (text, i) {
      var number = first + i;
      var line = el('div', 'line');
      line.dataset.line = number;
      line.appendChild(el('span', 'no', number));
      if (typeof text === 'string') {
        line.appendChild(el('span', 'src', text.length ? text : ' '));
      } else {
        line.appendChild(el('span', 'src bad', '(this line cannot be shown: ' + (text && text.bad) + ')'));
      }
      if (g.line === number) line.classList.add('error-line');
      frag.appendChild(line);
      lines.push(line);
    });
    if (!lines.length) box.appendChild(el('p', 'hint', 'No text: the file could not be read.'));
    box.appendChild(frag);
    return lines;
  }

  function openGame(id, step) {
    var g = games[id];
    if (!g) { showOverview(); return; }
    $('overview-view').hidden = true;
    $('game-view').hidden = false;
    if (view && view.id === id && view.detail) { go(step === null ? view.step : step); return; }
    view = { id: id, row: g, detail: null, states: [], step: 0, lines: [], current: null };
    $('game-title').textContent = g.file + ' #' + g.index + ' — ' + (g.game || 'unknown game');
    document.title = g.file + ' #' + g.index + ' — ' + data.title;
    verdictLine(g);
    clear($('picture'));
    clear($('charts'));
    clear($('record'));
    $('error-detail').hidden = true;
    $('step-label').textContent = '';
    $('head').textContent = 'loading…';
    window.scrollTo(0, 0);
    load(id).then(function (detail) {
      if (!view || view.id !== id) return;
      view.detail = detail;
      view.states = expand(detail.steps);
      view.lines = renderRecord(detail, g);
      $('slider').max = Math.max(0, detail.steps.length - 1);
      $('to-error').hidden = !detail.error || !detail.steps.length;
      drawCharts(detail);
      go(step === null ? 0 : step);
      $('record').focus({ preventScroll: true });
    }, function (error) {
      $('head').textContent = 'The details of this game cannot be shown: ' + error.message;
    });
  }

  function showOverview() {
    $('game-view').hidden = true;
    $('overview-view').hidden = false;
    document.title = data.title;
  }

  function errorStep() {
    var steps = view.detail.steps;
    for (var k = steps.length - 1; k >= 0; k -= 1) if (steps[k].error) return k;
    return -1;
  }

  function go(k) {
    if (!view || !view.detail) return;
    var steps = view.detail.steps;
    if (!steps.length) {
      $('step-label').textContent = 'no position: the game stops before its first statement';
      $('head').textContent = '';
      drawError(view.detail, true);
      highlight(view.row.line);
      return;
    }
    k = Math.max(0, Math.min(steps.length - 1, k | 0));
    view.step = k;
    var step = steps[k];
    $('slider').value = k;
    $('prev').disabled = $('first').disabled = k === 0;
    $('next').disabled = $('last').disabled = k === steps.length - 1;
    var label = step.error ? 'the error, at line ' + step.line :
      k === 0 ? 'start (after the tag section)' : 'statement ' + k + ', line ' + step.line;
    $('step-label').textContent = 'step ' + k + ' of ' + (steps.length - 1) + ': ' + label;
    drawPicture(view.states[k], view.detail);
    drawError(view.detail, !!step.error);
    highlight(step.line);
    var hash = '#game=' + view.id + '&step=' + k;
    if (location.hash !== hash) history.replaceState(null, '', hash);
  }

  function highlight(number) {
    if (view.current) view.current.classList.remove('current');
    view.current = null;
    if (number === null || number === undefined || !view.lines.length) return;
    var line = view.lines[number - view.detail.text.first];
    if (!line) return;
    line.classList.add('current');
    view.current = line;
    var box = $('record');
    var top = line.offsetTop, bottom = top + line.offsetHeight;
    if (top < box.scrollTop + 20 || bottom > box.scrollTop + box.clientHeight - 20) {
      box.scrollTop = Math.max(0, top - box.clientHeight / 2);
    }
  }

  function drawError(detail, atError) {
    var box = $('error-detail');
    clear(box);
    var error = detail.error;
    box.hidden = !(error && atError);
    if (box.hidden) return;
    box.appendChild(el('p', 'error-head', 'Line ' + error.line + ', column ' + error.column + ': ' + error.verdict +
      ' [' + error.code + ']'));
    box.appendChild(el('p', 'error-message', error.message));
    box.appendChild(el('p', 'error-rule', 'Rule: ' + error.rule));
    if (error.state) {
      box.appendChild(el('h4', null, 'State before it'));
      box.appendChild(el('pre', 'state-text', error.state));
    }
    if (error.alternatives.length) {
      box.appendChild(el('h4', null, 'Legal here'));
      var list = el('ul', 'alternatives');
      error.alternatives.forEach(function (a) { list.appendChild(el('li', null, a)); });
      box.appendChild(list);
    }
  }

  // --------------------------------------------------------------------------------------------------- picture
  function drawPicture(state, detail) {
    var box = $('picture');
    $('head').textContent = state.head || '';
    var blocks = {};
    (state.order || []).forEach(function (key) { blocks[key] = state['b:' + key]; });
    RefereePicture.draw(box, { text: state.text, active: state.active, blocks: blocks }, detail.players);
    if (detail.picture_problem) {
      box.insertBefore(el('p', 'hint', 'The picture of this game failed (' + detail.picture_problem +
        '); the summary text is shown instead.'), box.firstChild);
    }
  }

  // ---------------------------------------------------------------------------------------------------- charts
  function drawCharts(detail) {
    var box = $('charts');
    clear(box);
    var players = detail.players || [];
    (detail.charts || []).forEach(function (chart) {
      var n = chart.x.length;
      if (n < 2) return; // one round: nothing to chart
      var w = 420, h = 200, left = 36, right = 12, top = 12, bottom = 28;
      var max = 1;
      chart.series.forEach(function (s) { s.forEach(function (v) { if (v > max) max = v; }); });
      var xs = function (i) { return left + (n === 1 ? (w - left - right) / 2 : i * (w - left - right) / (n - 1)); };
      var ys = function (v) { return top + (h - top - bottom) * (1 - v / max); };
      var figure = el('figure', 'chart');
      figure.dataset.chart = chart.label;
      var image = svg('svg', { viewBox: '0 0 ' + w + ' ' + h, width: w, height: h, role: 'img' });
      image.appendChild(svg('title', {}, chart.label + ' by round'));
      [0, 0.5, 1].forEach(function (f) {
        var v = Math.round(max * f);
        image.appendChild(svg('line', { x1: left, x2: w - right, y1: ys(v), y2: ys(v), class: 'gridline' }));
        image.appendChild(svg('text', { x: left - 4, y: ys(v) + 4, class: 'axis-y' }, v));
      });
      var every = Math.max(1, Math.ceil(n / 12));
      chart.x.forEach(function (label, i) {
        if (i % every === 0 || i === n - 1) {
          image.appendChild(svg('text', { x: xs(i), y: h - 10, class: 'axis' }, label));
        }
      });
      chart.series.forEach(function (values, seat) {
        var points = values.map(function (v, i) { return xs(i) + ',' + ys(v); }).join(' ');
        image.appendChild(svg('polyline', { points: points, class: 'series ' + seatClass(seat) }));
        values.forEach(function (v, i) {
          var dot = svg('circle', { cx: xs(i), cy: ys(v), r: 3, class: 'dot ' + seatClass(seat) });
          dot.appendChild(svg('title', {}, (players[seat] || '') + ', round ' + chart.x[i] + ': ' + v + ' ' +
            chart.label));
          image.appendChild(dot);
        });
      });
      figure.appendChild(image);
      var caption = el('figcaption');
      caption.appendChild(el('strong', null, chart.label + ' by round'));
      players.forEach(function (name, seat) {
        var key = el('span', 'key ' + seatClass(seat));
        key.appendChild(el('span', 'swatch'));
        key.appendChild(el('span', null, name + ' ' + (chart.series[seat] ? chart.series[seat][n - 1] : '')));
        caption.appendChild(key);
      });
      figure.appendChild(caption);
      box.appendChild(figure);
    });
  }

  // ------------------------------------------------------------------------------------------ controls, routes
  $('first').addEventListener('click', function () { go(0); });
  $('prev').addEventListener('click', function () { go(view.step - 1); });
  $('next').addEventListener('click', function () { go(view.step + 1); });
  $('last').addEventListener('click', function () { go(1e9); });
  $('to-error').addEventListener('click', function () { go(errorStep()); });
  $('slider').addEventListener('input', function () { go(Number($('slider').value)); });
  $('back').addEventListener('click', function () { location.hash = ''; });
  $('record').addEventListener('click', function (event) {
    var line = event.target.closest('.line');
    if (!line || !view || !view.detail) return;
    var number = Number(line.dataset.line), steps = view.detail.steps, best = 0;
    steps.forEach(function (step, k) { if (step.line !== null && step.line <= number && !step.error) best = k; });
    if (view.detail.error && view.detail.error.line === number && errorStep() >= 0) best = errorStep();
    go(best);
  });

  document.addEventListener('keydown', function (event) {
    if ($('game-view').hidden || !view || event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')) return;
    var jump = event.shiftKey ? 10 : 1;
    if (event.key === 'ArrowRight') go(view.step + jump);
    else if (event.key === 'ArrowLeft') go(view.step - jump);
    else if (event.key === 'Home') go(0);
    else if (event.key === 'End') go(1e9);
    else if (event.key === 'e' && view.detail && errorStep() >= 0) go(errorStep());
    else if (event.key === 'Escape') location.hash = '';
    else return;
    event.preventDefault();
  });

  function route() {
    var match = /^#game=(\d+)(?:&step=(\d+))?$/.exec(location.hash);
    if (match) openGame(Number(match[1]), match[2] === undefined ? null : Number(match[2]));
    else showOverview();
  }
  window.addEventListener('hashchange', route);
  route();
  document.body.dataset.ready = 'true';
  if (window.performance && performance.mark) {
    performance.mark('referee-ready');
    requestAnimationFrame(function () { setTimeout(function () { performance.mark('referee-painted'); }, 0); });
  }
})();
