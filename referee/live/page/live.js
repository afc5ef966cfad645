/* referee serve: the scorekeeper page. It creates a table, sends its lines, and follows it live; it knows no rule
   and no game: the games and their setup choices come from GET games, what is legal and every judgement from the
   table, the position is drawn by RefereePicture (picture.js, the report page's own drawing code).

   The table and its token live in the page's address after the '#' (#table=ID&token=TOKEN): a reload keeps the
   table, a link gives it to someone else, and the token is never in an address a request is sent to. Requests carry
   it as Authorization: Bearer. Every text from the server is written with textContent, never parsed as HTML. */
(function () {
  'use strict';

  const el = RefereePicture.el;
  const clear = RefereePicture.clear;
  const $ = (id) => document.getElementById(id);

  // ------------------------------------------------------------------------------------------------------ the API
  function apiUrl(path) { return new URL(path, document.baseURI).href; }

  /* One request: {status, data} or {status, error} (the server's JSON error, or one made up for a network failure). */
  async function call(method, path, options) {
    const opts = options || {};
    const headers = {};
    if (opts.token) headers.Authorization = 'Bearer ' + opts.token;
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
    let response;
    try {
      response = await fetch(apiUrl(path), {
        method: method, headers: headers, cache: 'no-store',
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body)
      });
    } catch (error) {
      return { status: 0, error: { kind: 'network', code: 'no-connection',
        message: 'the server cannot be reached (' + error.message + ')' } };
    }
    const json = (response.headers.get('content-type') || '').startsWith('application/json');
    let data = null;
    try { data = json ? await response.json() : await response.text(); } catch (error) { data = null; }
    if (!response.ok) {
      const error = data && data.error ? data.error : { kind: 'http', code: String(response.status),
        message: 'the server answered ' + response.status };
      return { status: response.status, error: error };
    }
    return { status: response.status, data: data };
  }

  function errorText(error) {
    return (error.code ? '[' + error.code + '] ' : '') + error.message;
  }

  function showProblem(text) {
    const box = $('problem');
    box.textContent = text || '';
    box.hidden = !text;
  }

  // -------------------------------------------------------------------------------------------------- the address
  function fragment() {
    const params = new URLSearchParams(location.hash.slice(1));
    return { table: params.get('table'), token: params.get('token') };
  }

  function tableLink(id, token) {
    const params = new URLSearchParams({ table: id, token: token });
    return location.origin + location.pathname + '#' + params.toString();
  }

  const SEATS_KEY = 'referee-live-seats:';  // the seat tokens, known only to the tab that created the table

  function rememberSeats(created) {
    try {
      sessionStorage.setItem(SEATS_KEY + created.id, JSON.stringify(created.seat_tokens));
    } catch (error) { /* storage refused: the links are shown this time only */ }
  }

  function rememberedSeats(id) {
    try {
      return JSON.parse(sessionStorage.getItem(SEATS_KEY + id) || 'null');
    } catch (error) { return null; }
  }

  // ------------------------------------------------------------------------------------------------ the create form
  let games = [];
  let createdSeats = {};  // table id -> {player: token}, from this page's own POST /tables

  function currentGame() { return games.find((g) => g.id === $('game').value) || games[0]; }

  function option(value, text) {
    const node = el('option', null, text);
    node.value = value;
    return node;
  }

  function playerRow(name) {
    const li = el('li', 'player-row');
    const label = el('label', 'player-label');
    label.appendChild(el('span', 'seat-number'));
    const input = el('input');
    input.type = 'text';
    input.className = 'player-name';
    input.autocomplete = 'off';
    input.spellcheck = false;
    input.value = name || '';
    label.appendChild(input);
    li.appendChild(label);
    const remove = el('button', 'remove-player', '✕');
    remove.type = 'button';
    remove.addEventListener('click', () => { li.remove(); renumberPlayers(); });
    li.appendChild(remove);
    return li;
  }

  function renumberPlayers() {
    const game = currentGame();
    const rows = Array.from($('players').children);
    rows.forEach((row, i) => {
      row.querySelector('.seat-number').textContent = 'Seat ' + (i + 1);
      const remove = row.querySelector('.remove-player');
      remove.hidden = rows.length <= game.min_players;
      remove.setAttribute('aria-label', 'remove seat ' + (i + 1));
    });
    $('add-player').disabled = rows.length >= game.max_players;
    $('players-hint').textContent = game.title + ': ' + game.min_players + ' to ' + game.max_players + ' players.';
  }

  function fillGameChoices() {
    const game = currentGame();
    const players = $('players');
    while (players.children.length < game.min_players) players.appendChild(playerRow(''));
    while (players.children.length > game.max_players) players.lastChild.remove();
    renumberPlayers();

    const ruleset = $('ruleset');
    clear(ruleset);
    game.rulesets.forEach((name) => {
      ruleset.appendChild(option(name, name + (name === game.default_ruleset ? ' (default)' : '')));
    });
    ruleset.value = game.default_ruleset;

    const variant = $('variant');
    clear(variant);
    variant.appendChild(option('', 'none'));
    game.variants.forEach((v) => variant.appendChild(option(v.name, v.name)));
    variant.disabled = !game.variants.length;
    describeVariant();

    const box = $('own-tags');
    clear(box);
    game.tags.forEach((tag) => box.appendChild(tagField(tag)));
  }

  function describeVariant() {
    const found = currentGame().variants.find((v) => v.name === $('variant').value);
    $('variant-description').textContent = found ? found.description : '';
  }

  /* A field for one of the game's own tags: a select per part of its registered names (the first option: leave it
     to the ruleset or variant), or free text when the game registers none. */
  function tagField(tag) {
    const box = el('fieldset', 'own-tag');
    box.dataset.tag = tag.name;
    box.appendChild(el('legend', null, tag.name));
    if (!tag.parts.length) {
      const label = el('label', 'field');
      const input = el('input');
      input.type = 'text';
      input.className = 'tag-part';
      input.placeholder = tag.default;
      label.appendChild(document.createTextNode(tag.name + ' '));
      label.appendChild(input);
      box.appendChild(label);
      return box;
    }
    const defaults = tag.default.split(',').map((s) => s.trim());
    tag.parts.forEach((part) => {
      const label = el('label', 'field');
      if (tag.parts.length > 1) label.appendChild(document.createTextNode(part.label + ' '));
      const select = el('select', 'tag-part');
      if (tag.parts.length === 1) select.setAttribute('aria-label', tag.name);
      const usual = part.values.find((v) => defaults.indexOf(v) >= 0);
      select.appendChild(option('', tag.parts.length > 1 ? '—' : 'the ruleset\'s' + (usual ? ' (' + usual + ')' : '')));
      part.values.forEach((v) => select.appendChild(option(v, v)));
      select.dataset.usual = usual || '';
      label.appendChild(select);
      box.appendChild(label);
    });
    if (tag.parts.length > 1) {
      box.appendChild(el('p', 'hint', 'One of each, or none for the ruleset\'s or variant\'s (' + tag.default + ').'));
      const selects = Array.from(box.querySelectorAll('select'));
      selects.forEach((select) => select.addEventListener('change', () => {
        if (!select.value) return;  // one part chosen: the others start from the usual ones
        selects.forEach((other) => { if (!other.value) other.value = other.dataset.usual; });
      }));
    }
    return box;
  }

  function setupFromForm() {
    const game = currentGame();
    const players = Array.from(document.querySelectorAll('#players .player-name')).map((i) => i.value.trim());
    if (players.some((name) => !name)) return { problem: 'Name every player (or remove the empty seats).' };
    const tags = {};
    if ($('ruleset').value && $('ruleset').value !== game.default_ruleset) tags.Ruleset = $('ruleset').value;
    if ($('variant').value) tags.Variant = $('variant').value;
    for (const box of document.querySelectorAll('#own-tags .own-tag')) {
      const values = Array.from(box.querySelectorAll('.tag-part')).map((part) => part.value.trim());
      const chosen = values.filter(Boolean);
      if (!chosen.length) continue;
      if (chosen.length < values.length) {
        return { problem: box.dataset.tag + ': choose one of each, or none of them.' };
      }
      tags[box.dataset.tag] = chosen.join(', ');
    }
    document.querySelectorAll('.more-tags input').forEach((input) => {
      if (input.value.trim()) tags[input.dataset.tag] = input.value.trim();
    });
    return { body: { game: game.id, players: players, tags: tags } };
  }

  async function createTable(event) {
    event.preventDefault();
    const problem = $('create-problem');
    const setup = setupFromForm();
    if (setup.problem) {
      problem.textContent = setup.problem;
      problem.hidden = false;
      return;
    }
    $('create').disabled = true;
    const reply = await call('POST', 'tables', { body: setup.body });
    $('create').disabled = false;
    if (reply.error) {
      problem.textContent = 'The table was not created: ' + errorText(reply.error);
      problem.hidden = false;
      return;
    }
    problem.hidden = true;
    createdSeats[reply.data.id] = reply.data.seat_tokens;
    rememberSeats(reply.data);
    location.hash = '#' + new URLSearchParams({ table: reply.data.id, token: reply.data.host_token }).toString();
  }

  async function showCreate() {
    closeTable();
    $('table-view').hidden = true;
    $('create-view').hidden = false;
    $('heading').textContent = 'live tables';
    $('subtitle').textContent = '';
    document.title = 'referee — a new table';
    if (!games.length) {
      const reply = await call('GET', 'games');
      if (reply.error) { showProblem('The games cannot be listed: ' + errorText(reply.error)); return; }
      games = reply.data.games;
      const select = $('game');
      games.forEach((g) => select.appendChild(option(g.id, g.title)));
      fillGameChoices();
    }
    showProblem('');
    document.body.dataset.ready = 'create';
  }

  // ---------------------------------------------------------------------------------------------------- the table
  let session = null;  // the table open in the page: {id, token, table, connection: its stream's AbortController, ...}

  function closeTable() {
    if (session) {
      session.closed = true;
      if (session.connection) session.connection.abort();
      session = null;
    }
  }

  async function openTable(id, token) {
    closeTable();
    session = { id: id, token: token, table: null, connection: null, closed: false,
      refreshing: null, again: false, sending: false, listOpen: false, highlighted: -1, shown: [] };
    $('create-view').hidden = true;
    $('table-view').hidden = false;
    $('refusal').hidden = true;
    $('line').value = '';
    clear($('lines'));
    clear($('picture'));
    document.body.dataset.ready = 'loading';
    const mine = session;
    const reply = await call('GET', 'tables/' + encodeURIComponent(id), { token: token });
    if (mine !== session) return;
    if (reply.error) {
      showProblem('This table cannot be opened: ' + errorText(reply.error));
      $('table-view').hidden = true;
      document.body.dataset.ready = 'failed';
      return;
    }
    showProblem('');
    show(reply.data);
    showLinks();
    follow(mine);
    document.body.dataset.ready = 'table';
    $('line').focus();
  }

  /* Read the table again (after a line, an event, a reconnection); one read at a time, once more if asked meanwhile. */
  function refresh() {
    const mine = session;
    if (!mine) return Promise.resolve();
    if (mine.refreshing) {
      mine.again = true;
      return mine.refreshing;
    }
    mine.refreshing = (async () => {
      do {
        mine.again = false;
        const reply = await call('GET', 'tables/' + encodeURIComponent(mine.id), { token: mine.token });
        if (mine !== session) return;
        if (reply.error) {
          setConnection('problem', 'cannot read the table: ' + errorText(reply.error));
        } else if (!mine.again) {
          show(reply.data);
        }
      } while (mine.again && mine === session);
      mine.refreshing = null;
    })();
    return mine.refreshing;
  }

  function show(table) {
    session.table = table;
    const host = table.seat === null;
    $('heading').textContent = table.title;
    $('table-title').textContent = table.title + ': ' + table.players.join(', ');
    document.title = table.title + ' — ' + table.players.join(', ') + ' — referee';
    const about = ['rules: ' + table.ruleset];
    Object.keys(table.tags).forEach((name) => {
      if (name !== 'Ruleset' && name !== 'Variant') about.push(name + ': ' + table.tags[name]);
    });
    about.push('table ' + table.id);
    $('table-about').textContent = about.join(' · ');
    $('role').textContent = host
      ? 'You hold the host\'s token: you send every line and may undo.'
      : 'You hold ' + table.seat + '\'s seat token: you follow the table and send ' + table.seat + '\'s own lines (' +
        table.seat + ': …).';
    $('undo').hidden = !host;
    showStanding(table);
    showLines(table.lines);
    showPosition(table);
    updateSuggestions();
  }

  function showStanding(standing) {
    const box = $('verdict');
    clear(box);
    box.className = 'verdict-line verdict-' + standing.verdict;
    box.dataset.verdict = standing.verdict;
    box.appendChild(el('span', 'verdict', standing.verdict));
    const outcome = standing.outcome;
    if (!outcome) {
      box.appendChild(el('span', null, ' the game goes on; every line so far is legal.'));
      return;
    }
    const winners = outcome.winners || [];
    let text = ' the game is over: ' + winners.join(' & ') + (winners.length > 1 ? ' share the win' : ' wins');
    if (outcome.scores) {
      text += ' (' + Object.keys(outcome.scores).map((name) => name + ' ' + outcome.scores[name]).join(', ') + ')';
    }
    if (outcome.tiebreak) text += '; ' + outcome.tiebreak;
    box.appendChild(el('span', 'outcome', text));
    box.appendChild(el('span', 'termination', ' — ' + outcome.termination));
  }

  function showLines(lines) {
    const list = $('lines');
    clear(list);
    const frag = document.createDocumentFragment();
    lines.forEach((text, i) => {
      const li = el('li', 'line');
      li.dataset.number = i + 1;
      li.appendChild(el('span', 'no', i + 1));
      li.appendChild(el('span', 'src', text));
      frag.appendChild(li);
    });
    list.appendChild(frag);
    $('line-count').textContent = '(' + lines.length + ')';
    $('undo').disabled = !lines.length;
    list.scrollTop = list.scrollHeight;  // the last lines in view
  }

  function showPosition(table) {
    const picture = table.picture;
    $('head').textContent = picture && picture.head ? picture.head : '';
    $('head').hidden = !$('head').textContent;
    const problem = $('picture-problem');
    problem.hidden = !table.picture_problem;
    problem.textContent = table.picture_problem ? 'The picture failed (' + table.picture_problem +
      '); the summary below is the table as the referee holds it.' : '';
    if (picture) RefereePicture.draw($('picture'), picture, table.players);
    else clear($('picture'));
    $('state').textContent = table.state;
  }

  // -------------------------------------------------------------------------------------------------- the links
  function showLinks() {
    const box = $('links');
    const list = $('link-list');
    clear(list);
    const table = session.table;
    if (table.seat !== null) { box.hidden = true; return; }
    const seats = createdSeats[table.id] || rememberedSeats(table.id) || {};
    box.hidden = false;
    list.appendChild(linkRow('Host (scorekeeper)', tableLink(table.id, session.token), 'host'));
    table.players.forEach((player) => {
      if (seats[player]) list.appendChild(linkRow(player, tableLink(table.id, seats[player]), player));
    });
    if (!Object.keys(seats).length) {
      list.appendChild(el('p', 'hint', 'The seats\' links are shown only in the tab that created the table (the ' +
        'server keeps no token it could show again).'));
    }
  }

  function linkRow(label, link, who) {
    const row = el('div', 'link-row');
    row.dataset.link = who;
    const field = el('label', 'link-label');
    field.appendChild(el('span', null, label));
    const input = el('input', 'link');
    input.type = 'text';
    input.readOnly = true;
    input.value = link;
    field.appendChild(input);
    row.appendChild(field);
    const copy = el('button', 'copy', 'Copy');
    copy.type = 'button';
    copy.setAttribute('aria-label', 'copy the link of ' + label);
    copy.addEventListener('click', async () => {
      input.select();
      let done = false;
      if (navigator.clipboard && window.isSecureContext) {
        try { await navigator.clipboard.writeText(link); done = true; } catch (error) { done = false; }
      }
      if (!done) done = document.execCommand && document.execCommand('copy');
      copy.textContent = done ? 'Copied' : 'Selected: copy it';
      setTimeout(() => { copy.textContent = 'Copy'; }, 2000);
    });
    row.appendChild(copy);
    return row;
  }

  // ------------------------------------------------------------------------------------------- following it live
  function setConnection(state, text) {
    const box = $('connection');
    box.className = 'connection ' + state;
    box.dataset.state = state;
    box.textContent = text;
  }

  /* The table's event stream, read with fetch (EventSource cannot send the token), reconnected after a drop; the
     table is read again after each event and each reconnection. A hidden tab (another tab in front, a phone asleep)
     lets its stream go and follows again when shown: a browser keeps at most six connections to a server (HTTP/1.1)
     and each stream holds one, so six open tabs of the server would leave a seventh, and every request, waiting. */
  async function follow(mine) {
    let delay = 500;
    let first = true;
    while (!mine.closed) {
      if (document.hidden) {
        setConnection('paused', 'paused while the tab is hidden');
        await whenShown();
        if (mine.closed) return;
        first = false;  // shown again: read the table once following
        delay = 500;
      }
      const connection = new AbortController();
      mine.connection = connection;
      let response = null;
      try {
        response = await fetch(apiUrl('tables/' + encodeURIComponent(mine.id) + '/events'), {
          headers: { Authorization: 'Bearer ' + mine.token }, signal: connection.signal, cache: 'no-store'
        });
      } catch (error) {
        response = null;
      }
      if (mine.closed) return;
      if (response && (response.status === 401 || response.status === 404)) {
        const error = await response.json().catch(() => ({ error: { message: 'refused' } }));
        setConnection('problem', 'not following: ' + errorText(error.error || { message: 'refused' }));
        return;
      }
      if (response && response.ok) {
        setConnection('live', 'live');
        delay = 500;
        if (!first) refresh();
        first = false;
        try {
          await readEvents(response, mine);
        } catch (error) { /* the connection dropped: reconnect */ }
        if (mine.closed) return;
      }
      if (document.hidden) continue;  // let go on purpose: paused until shown
      setConnection('waiting', 'reconnecting…');
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 10000);
    }
  }

  function whenShown() {
    return new Promise((resolve) => {
      const shown = () => {
        if (document.hidden) return;
        document.removeEventListener('visibilitychange', shown);
        resolve();
      };
      document.addEventListener('visibilitychange', shown);
      shown();
    });
  }

  document.addEventListener('visibilitychange', () => {
    if (document.hidden && session && session.connection) session.connection.abort();
  });

  async function readEvents(response, mine) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done || mine.closed) return;
      buffer += chunk.value.replace(/\r\n?/g, '\n');
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let name = 'message';
        let data = '';
        block.split('\n').forEach((line) => {
          if (line.startsWith('event:')) name = line.slice(6).trim();
          else if (line.startsWith('data:')) data += line.slice(5).replace(/^ /, '');
        });
        if (data) onEvent(mine, name, JSON.parse(data));
      }
    }
  }

  function onEvent(mine, name, data) {
    if (mine !== session || !mine.table) return;
    const table = mine.table;
    if (name === 'open') {
      if (data.lines !== table.lines.length) refresh();
    } else if (name === 'line') {
      if (data.number === table.lines.length + 1) {  // shown at once; the position follows with the re-read
        table.lines.push(data.text);
        showLines(table.lines);
        showStanding(data);
      }
      refresh();
    } else if (name === 'undo') {
      refresh();
    } else if (name === 'close') {
      setConnection('waiting', 'the server closed the stream: ' + (data.reason || ''));
    }
  }

  // -------------------------------------------------------------------------------------------- sending a line
  async function sendLine(event) {
    if (event) event.preventDefault();
    const mine = session;
    const input = $('line');
    const text = input.value;
    if (!mine || !mine.table || mine.sending || !text.trim()) return;
    mine.sending = true;
    input.readOnly = true;
    $('send').disabled = true;
    openList(false);
    const expect = mine.table.lines.length;
    const reply = await call('POST', 'tables/' + encodeURIComponent(mine.id) + '/lines',
      { token: mine.token, body: { text: text, expect: expect } });
    mine.sending = false;
    input.readOnly = false;
    $('send').disabled = false;
    if (mine !== session) return;
    if (!reply.error) {
      const table = mine.table;
      if (reply.data.number === table.lines.length + 1) table.lines.push(text);
      table.verdict = reply.data.verdict;
      table.outcome = reply.data.outcome;
      table.legal = reply.data.legal;
      input.value = '';
      $('refusal').hidden = true;
      showLines(table.lines);
      showStanding(table);
      refresh();
    } else if (reply.status === 422) {
      showRefusal(reply.error, text);
    } else if (reply.status === 409) {
      showMessage('Not sent: ' + errorText(reply.error) + '. The table was read again; your line is still here.');
      await refresh();
    } else {
      showMessage('Not sent: ' + errorText(reply.error));
    }
    input.focus();
  }

  function showMessage(text) {
    const box = $('refusal');
    clear(box);
    box.className = 'refusal message';
    box.appendChild(el('p', 'refusal-message', text));
    box.hidden = false;
  }

  /* A refused line: what the referee says (kind, code, message, the rule in words), the column marked in the input,
     and the statements legal instead, each one click away. The line stays in the input to be fixed. */
  function showRefusal(error, text) {
    const box = $('refusal');
    clear(box);
    box.className = 'refusal';
    box.dataset.code = error.code;
    const where = error.column ? ', column ' + error.column : '';
    box.appendChild(el('p', 'refusal-head', 'Refused' + where + ': ' + error.kind + ' [' + error.code + ']'));
    box.appendChild(el('p', 'refusal-message', error.message));
    if (error.rule) box.appendChild(el('p', 'refusal-rule', 'Rule: ' + error.rule));
    const legal = error.legal || [];
    if (legal.length) {
      box.appendChild(el('h4', null, 'Legal here'));
      const list = el('ul', 'alternatives');
      legal.forEach((statement) => {
        const item = el('li');
        const button = el('button', 'alternative', statement);
        button.type = 'button';
        button.addEventListener('click', () => take(statement));
        item.appendChild(button);
        list.appendChild(item);
      });
      box.appendChild(list);
    }
    box.hidden = false;
    const input = $('line');
    if (input.value === text && error.column) {
      const [start, end] = columnRange(text, error.column);
      input.focus();
      input.setSelectionRange(start, end);
    }
  }

  /* The column (1-based, in characters) as a range of the input (UTF-16): the word that starts there. */
  function columnRange(text, column) {
    const chars = Array.from(text);
    const index = Math.min(Math.max(column - 1, 0), chars.length);
    const start = chars.slice(0, index).join('').length;
    let stop = index;
    while (stop < chars.length && !/[\s,;:]/.test(chars[stop])) stop += 1;
    if (stop === index && stop < chars.length) stop += 1;
    return [start, chars.slice(0, stop).join('').length];
  }

  async function undo() {
    const mine = session;
    if (!mine || !mine.table || !mine.table.lines.length) return;
    const number = mine.table.lines.length;
    $('undo').disabled = true;
    const reply = await call('DELETE', 'tables/' + encodeURIComponent(mine.id) + '/lines/last?expect=' + number,
      { token: mine.token });
    if (mine !== session) return;
    if (reply.error) {
      showMessage('Not withdrawn: ' + errorText(reply.error));
    } else {
      const input = $('line');
      const back = !input.value.trim();
      if (back) input.value = reply.data.text;  // to be fixed and sent again
      showMessage('Line ' + reply.data.number + ' withdrawn: ' + reply.data.text + (back ? ' (back in the input)' : ''));
      mine.table.lines.length = reply.data.lines;
      showLines(mine.table.lines);
    }
    await refresh();
    $('line').focus();
  }

  async function download() {
    const mine = session;
    if (!mine) return;
    const reply = await call('GET', 'tables/' + encodeURIComponent(mine.id) + '/record', { token: mine.token });
    if (reply.error) { showMessage('The record cannot be read: ' + errorText(reply.error)); return; }
    const blob = new Blob([reply.data], { type: 'text/plain;charset=utf-8' });
    const link = el('a');
    link.href = URL.createObjectURL(blob);
    link.download = (mine.table ? mine.table.game : 'table') + '-' + mine.id + '.rec';
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  }

  // ----------------------------------------------------------------------------------------------- completion
  /* A suggestion is a statement legal now, or a template of one: it holds a placeholder — a word in capitals
     (PLAYER, DECK; not a player's name, not the start of a name like "NYPD Officer"), "...", a range "1..5", choices
     "a|b", or a count of cards ("4 cards", "4 card(s)"). A template fills the input up to its first placeholder. */
  const PLACEHOLDER = /\.\.\.|\b\d+\.\.\d+\b|\b\d+ cards?\b|\b\d+ card\(s\)|\b[A-Z]{2,}\b(?! [A-Z][a-z])|\w\|\w/;

  function templatePrefix(text, players) {
    let masked = text;
    players.forEach((name) => {
      if (!name) return;
      masked = masked.split(name).join('x'.repeat(name.length));
    });
    const found = PLACEHOLDER.exec(masked);
    return found ? text.slice(0, found.index) : null;
  }

  function suggestionsFor(typed, legal, players) {
    const query = typed.toLowerCase().replace(/\s+/g, ' ').trimStart();
    const words = query.split(' ').filter(Boolean);
    const ranked = [];
    legal.forEach((text, order) => {
      const prefix = templatePrefix(text, players);
      const lower = text.toLowerCase();
      let rank = -1;
      if (!query || lower.startsWith(query)) rank = 0;
      else if (prefix !== null && query.startsWith(prefix.toLowerCase())) rank = 1;
      else if (words.length && inOrder(lower, words)) rank = 2;
      if (rank >= 0 && !(prefix === null && lower === query.trimEnd())) {
        ranked.push({ text: text, prefix: prefix, rank: rank, order: order });
      }
    });
    ranked.sort((a, b) => a.rank - b.rank || a.order - b.order);
    return ranked.slice(0, 100);
  }

  function inOrder(text, words) {
    let at = 0;
    for (const word of words) {
      const found = text.indexOf(word, at);
      if (found < 0) return false;
      at = found + word.length;
    }
    return true;
  }

  function updateSuggestions() {
    const mine = session;
    const input = $('line');
    if (!mine || !mine.table || document.activeElement !== input || mine.sending || !mine.listOpen) {
      hideSuggestions();
      return;
    }
    const before = mine.highlighted >= 0 && mine.shown[mine.highlighted] ? mine.shown[mine.highlighted].text : null;
    mine.shown = suggestionsFor(input.value, everyLegal(mine), mine.table.players);
    const list = $('suggestions');
    clear(list);
    mine.shown.forEach((item, i) => {
      const li = el('li', 'suggestion' + (item.prefix !== null ? ' template' : ''));
      li.id = 'suggestion-' + i;
      li.setAttribute('role', 'option');
      li.dataset.text = item.text;
      li.appendChild(el('span', 'text', item.text));
      if (item.prefix !== null) li.appendChild(el('span', 'kind', 'template'));
      li.addEventListener('mousedown', (event) => event.preventDefault());  // the input keeps the focus
      li.addEventListener('click', () => take(item.text));
      list.appendChild(li);
    });
    highlight(mine.shown.findIndex((item) => item.text === before));  // a re-read keeps the choice
    list.hidden = !mine.shown.length;
    input.setAttribute('aria-expanded', String(!list.hidden));
    $('legal-toggle').setAttribute('aria-expanded', String(!list.hidden));
  }

  /* The table's "legal" may be shortened (Santorini lists 60 of a turn's choices, often hundreds): completion reads
     every statement legal now from GET legal, once per position, and uses the short list until it has come. */
  function everyLegal(mine) {
    const key = mine.table.lines.join('\n');
    if (mine.allLegal && mine.allLegal.key === key) return mine.allLegal.legal;
    fetchAllLegal(mine, key);
    return mine.table.legal;
  }

  async function fetchAllLegal(mine, key) {
    if (mine.legalAsked === key) return;
    mine.legalAsked = key;
    const reply = await call('GET', 'tables/' + encodeURIComponent(mine.id) + '/legal', { token: mine.token });
    if (mine.legalAsked === key) mine.legalAsked = null;
    if (reply.error || mine !== session || !mine.table || mine.table.lines.join('\n') !== key) return;
    if (reply.data.lines !== mine.table.lines.length) return;
    mine.allLegal = { key: key, legal: reply.data.legal };
    updateSuggestions();
  }

  function hideSuggestions() {
    $('suggestions').hidden = true;
    $('line').setAttribute('aria-expanded', 'false');
    $('line').removeAttribute('aria-activedescendant');
    $('legal-toggle').setAttribute('aria-expanded', 'false');
  }

  /* The list opens as a line is typed, with ↓ or the button beside the input; it closes with Esc, when a statement is
     taken or the line sent, and when the input loses the focus. */
  function openList(open) {
    if (!session) return;
    session.listOpen = open;
    updateSuggestions();
  }

  function highlight(index) {
    const mine = session;
    const items = $('suggestions').children;
    Array.prototype.forEach.call(items, (item, i) => item.setAttribute('aria-selected', String(i === index)));
    mine.highlighted = index;
    if (index >= 0 && items[index]) {
      $('line').setAttribute('aria-activedescendant', items[index].id);
      items[index].scrollIntoView({ block: 'nearest' });
    } else {
      $('line').removeAttribute('aria-activedescendant');
    }
  }

  /* A suggestion taken: a statement fills the input (its first unknown card "?", if any, selected to be typed over);
     a template fills its fixed part. */
  function take(text) {
    const input = $('line');
    const prefix = templatePrefix(text, session.table.players);
    input.value = prefix !== null ? prefix : text;
    input.focus();
    const unknown = prefix === null ? text.indexOf('?') : -1;
    if (unknown >= 0) input.setSelectionRange(unknown, unknown + 1);
    else input.setSelectionRange(input.value.length, input.value.length);
    session.highlighted = -1;  // taken: Enter now sends what the input holds (a template's line, once completed)
    openList(prefix !== null);
  }

  function onLineKey(event) {
    const mine = session;
    if (!mine) return;
    const open = !$('suggestions').hidden && mine.shown.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) {
        openList(true);
        if (mine.shown.length) highlight(event.key === 'ArrowDown' ? 0 : mine.shown.length - 1);
        return;
      }
      const count = mine.shown.length;  // -1: none highlighted, the text as typed
      const next = mine.highlighted + (event.key === 'ArrowDown' ? 1 : -1);
      highlight(next >= count ? -1 : next < -1 ? count - 1 : next);
    } else if (event.key === 'Enter' && open && mine.highlighted >= 0) {
      event.preventDefault();
      take(mine.shown[mine.highlighted].text);
    } else if (event.key === 'Tab' && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
      const input = $('line');
      const completes = open && (mine.highlighted >= 0 || (mine.shown[0].rank === 0 && input.value.trim()));
      const unknown = input.value.indexOf('?', input.selectionEnd);
      if (completes) {  // the highlighted suggestion, or the first one the text begins
        event.preventDefault();
        take(mine.shown[Math.max(mine.highlighted, 0)].text);
      } else if (unknown >= 0) {  // the next unknown card "?", selected to be typed over
        event.preventDefault();
        input.setSelectionRange(unknown, unknown + 1);
      }
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      openList(false);
    }
  }

  // ------------------------------------------------------------------------------------------------------ routes
  function route() {
    const where = fragment();
    if (where.table && where.token) {
      if (!session || session.id !== where.table || session.token !== where.token) openTable(where.table, where.token);
    } else {
      showCreate();
    }
  }

  $('game').addEventListener('change', fillGameChoices);
  $('variant').addEventListener('change', describeVariant);
  $('add-player').addEventListener('click', () => {
    $('players').appendChild(playerRow(''));
    renumberPlayers();
    $('players').lastChild.querySelector('input').focus();
  });
  $('create-form').addEventListener('submit', createTable);
  $('line-form').addEventListener('submit', sendLine);
  const line = $('line');
  line.addEventListener('input', () => {
    if (session) session.highlighted = -1;  // typing asks anew: no choice from before it is taken by Enter
    openList(line.value.trim() !== '');
  });
  line.addEventListener('blur', () => openList(false));
  const toggle = $('legal-toggle');
  toggle.addEventListener('mousedown', (event) => event.preventDefault());  // the input keeps the focus
  toggle.addEventListener('click', () => {
    line.focus();
    openList(!(session && session.listOpen));
  });
  line.addEventListener('keydown', onLineKey);
  $('undo').addEventListener('click', undo);
  $('download').addEventListener('click', download);
  window.addEventListener('hashchange', route);
  route();
})();
