// The element a view shows: it renders the server's component it is given as `component`, and a
// click runs a command through it.
customElements.define(
  "thermo-stat",
  class extends HTMLElement {
    #component;
    #stop;

    set component(component) {
      this.#stop?.();
      this.#component = component;
      this.#stop = component.subscribe(() => this.render());
      this.render();
    }

    get component() {
      return this.#component;
    }

    connectedCallback() {
      this.render();
    }

    render() {
      const target = this.#component?.getSnapshot()?.target;
      this.innerHTML = `<output>${target === undefined ? "…" : `${target} °C`}</output><button>Warmer</button>`;
      this.querySelector("button").onclick = () => {
        const celsius = (target ?? 20) + 0.5;
        this.#component?.execute("setTarget", { celsius }).catch((error) => {
          this.dataset.error = error.message;
        });
      };
    }
  },
);
