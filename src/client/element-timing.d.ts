import 'react';

declare module 'react' {
  /**
   * Element Timing's attribute (https://w3c.github.io/element-timing/): the browser reports when the element was
   * painted (a PerformanceObserver of type 'element'). React passes it to the DOM as written.
   */
  interface ImgHTMLAttributes<T> {
    elementtiming?: string;
  }
}
