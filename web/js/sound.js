// Short synthesised sounds (no files); can be turned off.

let ctx = null;
let on = localStorage.getItem('tabula.sound') !== 'off';

export function soundOn() { return on; }

export function setSound(value) {
  on = value;
  localStorage.setItem('tabula.sound', value ? 'on' : 'off');
}

function tone(freq, dur, type = 'sine', gain = 0.08) {
  if (!on) return;
  try {
    ctx = ctx || new AudioContext();
    const o = ctx.createOscillator();
    const g = ctx.createGain();
    o.type = type;
    o.frequency.value = freq;
    g.gain.setValueAtTime(gain, ctx.currentTime);
    g.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + dur);
    o.connect(g).connect(ctx.destination);
    o.start();
    o.stop(ctx.currentTime + dur);
  } catch { /* no audio here */ }
}

export const sounds = {
  move: () => tone(520, 0.08, 'triangle'),
  capture: () => { tone(300, 0.12, 'square', 0.05); setTimeout(() => tone(220, 0.1, 'square', 0.04), 60); },
  dice: () => { for (let i = 0; i < 3; i++) setTimeout(() => tone(700 + 200 * Math.random(), 0.03, 'square', 0.03), i * 40); },
  end: () => { tone(440, 0.15); setTimeout(() => tone(660, 0.25), 150); },
  error: () => tone(160, 0.15, 'sawtooth', 0.04),
  lowTime: () => { tone(880, 0.08, 'square', 0.05); setTimeout(() => tone(880, 0.08, 'square', 0.05), 160); },
};
