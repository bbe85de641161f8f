//! The paste worker (Trunk `data-type="worker"`): "From my cluster"'s
//! reader, judge and replay (`podlab_core::paste`), started when that page
//! opens, in neither the terminal's worker nor the lint's.

fn main() {
    podlab_web::kubectl_worker::start_paste();
}
