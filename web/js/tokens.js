// tokens.js: the seat tokens this browser holds, and the links that carry
// them.  A token is a seat's key (docs/protocol.md): it arrives in an invite
// link's fragment (#game=ID&seat=N&token=T, never sent to a server), is kept
// in this browser's localStorage so a reload or a later visit sits again, and
// is then taken out of the address bar so it does not linger on screen or in
// a shared screenshot.
const PREFIX = 'croupier.seat.';
const ID_RE = /^[0-9a-f]{32}$/;
const TOKEN_RE = /^[A-Za-z0-9_-]{16,128}$/;

export function validGameId(id) {
  return typeof id === 'string' && ID_RE.test(id);
}
export function validToken(t) {
  return typeof t === 'string' && TOKEN_RE.test(t);
}

export function saveToken(gameId, seat, token, game) {
  if (!validGameId(gameId) || !validToken(token) || !Number.isInteger(seat)) return;
  try {
    localStorage.setItem(`${PREFIX}${gameId}.${seat}`, JSON.stringify({ token, game: String(game || ''), at: Date.now() }));
  } catch {
    // storage full or disabled: the link still works for this visit
  }
}

export function loadToken(gameId, seat) {
  try {
    const v = JSON.parse(localStorage.getItem(`${PREFIX}${gameId}.${seat}`) || 'null');
    return v && validToken(v.token) ? v.token : null;
  } catch {
    return null;
  }
}

export function forgetToken(gameId, seat) {
  try {
    localStorage.removeItem(`${PREFIX}${gameId}.${seat}`);
  } catch {
    // storage disabled: nothing kept
  }
}

// [{game_id, seat, game, at}] newest first (tokens are not returned).
export function seatTokens() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith(PREFIX)) continue;
      const [gameId, seat] = key.slice(PREFIX.length).split('.');
      const v = JSON.parse(localStorage.getItem(key) || 'null');
      if (validGameId(gameId) && /^[0-9]+$/.test(seat) && v) out.push({ game_id: gameId, seat: Number(seat), game: String(v.game || ''), at: Number(v.at) || 0 });
    }
  } catch {
    return out;
  }
  return out.sort((a, b) => b.at - a.at).slice(0, 50);
}

// The page of a seat this browser holds (no token in it).
export function gameHash(gameId, seat) {
  return `#game=${gameId}&seat=${seat}`;
}

// An invite link: the token travels in the fragment only.
export function inviteUrl(gameId, seat, token) {
  return `${location.origin}${location.pathname}#game=${gameId}&seat=${seat}&token=${token}`;
}

// The route in the address bar: {page: 'lobby'} or {page: 'game', game_id,
// seat (number or null), token, watch, text}.  Bad values fall back to the lobby.
export function parseHash(hash) {
  const params = new URLSearchParams(String(hash || '').replace(/^#/, ''));
  const gameId = params.get('game');
  if (!validGameId(gameId)) return { page: 'lobby' };
  const seatText = params.get('seat');
  const seat = seatText !== null && /^[0-9]{1,2}$/.test(seatText) ? Number(seatText) : null;
  const token = params.get('token');
  return {
    page: params.get('replay') ? 'replay' : 'game',
    game_id: gameId,
    seat,
    token: validToken(token) ? token : null,
    watch: params.get('watch') === '1' || seat === null,
    text: params.get('view') === 'text', // the generic table, whatever the game
  };
}
