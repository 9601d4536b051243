// The pool's queue of tasks waiting for a worker: two lanes, each first in, first out. A task sent
// with `{ background: true }` as its queue options (index builds, merges, encodes) waits behind
// every foreground one (searches, scans), so a search never queues behind a long ingest: it waits
// at most for the background tasks already running to finish. Invariant: within a lane, tasks leave
// in the order they came.
import { queueOptionsSymbol, type TaskQueue } from 'piscina';

type Task = Parameters<TaskQueue['push']>[0];

/** What a task tells the queue (Piscina's queue options of a task). */
export interface LaneOptions {
  background?: boolean;
}

class Lane {
  private items: Task[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(task: Task): void {
    this.items.push(task);
  }

  unshift(task: Task): void {
    if (this.head > 0) this.items[--this.head] = task;
    else this.items.unshift(task);
  }

  shift(): Task | null {
    if (this.head >= this.items.length) return null;
    const task = this.items[this.head];
    this.items[this.head++] = undefined as unknown as Task;
    // drop the consumed prefix once it is half the array, so a long-lived queue does not grow
    if (this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return task;
  }

  remove(task: Task): boolean {
    const i = this.items.indexOf(task, this.head);
    if (i < 0) return false;
    this.items.splice(i, 1);
    return true;
  }
}

export class LaneQueue implements TaskQueue {
  private readonly foreground = new Lane();
  private readonly background = new Lane();

  private laneOf(task: Task): Lane {
    const opts = task[queueOptionsSymbol] as LaneOptions | null;
    return opts?.background ? this.background : this.foreground;
  }

  get size(): number {
    return this.foreground.size + this.background.size;
  }

  push(task: Task): void {
    this.laneOf(task).push(task);
  }

  unshift(task: Task): void {
    this.laneOf(task).unshift(task);
  }

  shift(): Task | null {
    return this.foreground.shift() ?? this.background.shift();
  }

  remove(task: Task): void {
    this.laneOf(task).remove(task);
  }
}
