import { useEffect } from "react";
import { useProductName } from "./app-config";

/** Sets the tab title to "<page> · <product>", or just the product name. */
export function useDocumentTitle(page?: string): void {
  const productName = useProductName();
  useEffect(() => {
    document.title = page ? `${page} · ${productName}` : productName;
  }, [page, productName]);
}
