// @ts-check
// Optional sounds, made on the spot with the Web Audio API (nothing is downloaded): a
// soft slide when a card moves, a tap when it lands on a board, a ping when it is your
// turn, a chime for a won round. Off until the player turns them on; the page remembers
// the choice. Each sound played is counted on <body data-sounds> (the tests read it).

const KEY = "trash.sound";
let context = null;
let played = 0;

export function soundOn() {
  try { return localStorage.getItem(KEY) === "on"; } catch { return false; }
}

export function setSound(on) {
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch { /* private mode */ }
  if (on) audio();
}

function audio() {
  if (!context) {
    const Context = window.AudioContext
      || /** @type {{webkitAudioContext?: typeof AudioContext}} */ (window).webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

function tone(ctx, { freq, start = 0, length = 0.12, type = "sine", gain = 0.12 }) {
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  const at = ctx.currentTime + start;
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  amp.gain.setValueAtTime(0.0001, at);
  amp.gain.exponentialRampToValueAtTime(gain, at + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

function noise(ctx, { start = 0, length = 0.09, gain = 0.09, freq = 2500 }) {
  const frames = Math.max(1, Math.floor(ctx.sampleRate * length));
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / frames);
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  const amp = ctx.createGain();
  amp.gain.value = gain;
  source.connect(filter).connect(amp).connect(ctx.destination);
  source.start(ctx.currentTime + start);
}

const SOUNDS = {
  slide: (ctx) => noise(ctx, {}),
  place: (ctx) => { noise(ctx, { length: 0.05, freq: 1200, gain: 0.12 }); tone(ctx, { freq: 180, length: 0.06, gain: 0.08 }); },
  deal: (ctx) => { for (let i = 0; i < 6; i += 1) noise(ctx, { start: i * 0.07, length: 0.05, gain: 0.06 }); },
  shuffle: (ctx) => { for (let i = 0; i < 10; i += 1) noise(ctx, { start: i * 0.03, length: 0.04, gain: 0.05, freq: 3500 }); },
  turn: (ctx) => { tone(ctx, { freq: 660, length: 0.12 }); tone(ctx, { freq: 880, start: 0.1, length: 0.16 }); },
  win: (ctx) => { [523, 659, 784, 1047].forEach((freq, i) => tone(ctx, { freq, start: i * 0.09, length: 0.3, type: "triangle" })); },
};

/** Play a sound by name if sounds are on. */
export function play(name) {
  if (!soundOn() || !SOUNDS[name]) return;
  const ctx = audio();
  if (!ctx) return;
  try { SOUNDS[name](ctx); } catch { return; }
  played += 1;
  document.body.dataset.sounds = String(played);
}

/** The sound of an event, if it has one. */
export function soundOf(event) {
  switch (event.type) {
    case "drew": case "discarded": case "penalty_drawn": return "slide";
    case "placed": case "swapped": return "place";
    case "dealt": return "deal";
    case "reshuffled": return "shuffle";
    case "round_won": case "match_won": return "win";
    default: return null;
  }
}
