/**
 * The optional alarm sound: off unless the user turns it on (kept in local storage, which the end
 * of a session clears with the rest). A short tone made with the Web Audio API: no sound file to
 * load, and nothing plays until the page has had a click (the browser's autoplay rule).
 */
const KEY = 'live.alarmSound';

export const soundWanted = (): boolean => localStorage.getItem(KEY) === '1';

export function setSoundWanted(on: boolean): void {
  if (on) localStorage.setItem(KEY, '1');
  else localStorage.removeItem(KEY);
}

let context: AudioContext | null = null;

export function playAlarmTone(): void {
  if (typeof AudioContext === 'undefined') return;
  context ??= new AudioContext();
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.frequency.value = 880;
  gain.gain.setValueAtTime(0.2, context.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, context.currentTime + 0.6);
  oscillator.connect(gain).connect(context.destination);
  oscillator.start();
  oscillator.stop(context.currentTime + 0.6);
}
