// The builder's state and its one way to change it: `change()` records an undo snapshot, applies the
// change and redraws. Views (areas, panel, roles) subscribe with `onRender`.
import { History, type Draft, type Field } from './builder-model';

export type Selection = { field: string; area: number } | null;

export class Editor {
  selected: Selection = null;
  /** The API's sentences from the last save, by field uuid; roles' and the template's apart. */
  fieldErrors = new Map<string, string[]>();
  roleErrors: string[] = [];
  /** The role new fields are given. */
  activeRole: string;
  dirty = false;
  private readonly history = new History();
  private readonly views: (() => void)[] = [];

  constructor(public draft: Draft) {
    this.activeRole = draft.submitters[0]?.uuid ?? '';
  }

  onRender(view: () => void): void {
    this.views.push(view);
  }

  render(): void {
    for (const view of this.views) view();
  }

  change(mutate: (draft: Draft) => void): void {
    this.history.record(this.draft);
    mutate(this.draft);
    this.dirty = true;
    this.render();
  }

  /** For drags: the snapshot from before the drag, recorded once it moved something. */
  commitFrom(snapshot: string): void {
    this.history.recordSnapshot(snapshot);
    this.dirty = true;
    this.render();
  }

  undo(): boolean {
    const previous = this.history.undo();
    if (!previous) return false;
    this.draft = previous;
    if (this.selected && !this.selectedField()) this.selected = null;
    if (!this.draft.submitters.some((r) => r.uuid === this.activeRole)) this.activeRole = this.draft.submitters[0]?.uuid ?? '';
    this.dirty = true;
    this.render();
    return true;
  }

  select(selection: Selection): void {
    this.selected = selection;
    this.render();
  }

  selectedField(): Field | undefined {
    return this.selected ? this.draft.fields.find((f) => f.uuid === this.selected!.field) : undefined;
  }

  roleName(uuid: string): string {
    return this.draft.submitters.find((r) => r.uuid === uuid)?.name ?? 'no role';
  }
}
