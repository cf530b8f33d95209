import { useState } from "react";

/**
 * A dialog about one item of a list: the item stays set while the dialog closes, so its
 * title does not change under the closing animation.
 */
export function useDialogItem<T>() {
  const [state, setState] = useState<{ item: T | undefined; open: boolean }>({
    item: undefined,
    open: false,
  });
  return {
    item: state.item,
    open: state.open,
    show: (item?: T) => setState({ item, open: true }),
    onOpenChange: (open: boolean) => setState((s) => ({ ...s, open })),
  };
}
