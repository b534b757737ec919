// Text that grows by many small pieces (a streamed reply's deltas), kept compact. `a += b` makes
// a rope with one node per piece (about 60 bytes for a 7-character delta, all of it surviving into
// the old generation); an array keeps every piece as its own string. Here the pieces are joined
// into a flat block every BLOCK of them, so a reply costs about its own length while it streams.

/** Pieces joined into one block at a time: a few KB of text for typical deltas. */
const BLOCK = 256;

export class TextBuffer {
  #blocks: string[] = [];
  #pieces: string[] = [];
  #length = 0;
  #joined: string | null = '';

  /** How many UTF-16 code units it holds. */
  get length(): number {
    return this.#length;
  }

  push(piece: string): void {
    if (piece === '') return;
    this.#pieces.push(piece);
    this.#length += piece.length;
    this.#joined = null;
    if (this.#pieces.length >= BLOCK) {
      this.#blocks.push(this.#pieces.join(''));
      this.#pieces = [];
    }
  }

  /** Empties it, as a new buffer would be. */
  clear(): void {
    this.#blocks = [];
    this.#pieces = [];
    this.#length = 0;
    this.#joined = '';
  }

  /** The whole text, one flat string (joined once, then kept until the next push). */
  toString(): string {
    if (this.#joined === null) {
      this.#blocks.push(this.#pieces.join(''));
      this.#joined = this.#blocks.join('');
      this.#blocks = [this.#joined];
      this.#pieces = [];
    }
    return this.#joined;
  }
}
