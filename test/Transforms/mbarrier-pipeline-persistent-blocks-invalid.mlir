// persistent-blocks out of range is an error of the pass, before any kernel
// is looked at.
// RUN: not tile-opt %s --tile-mbarrier-pipeline=persistent-blocks=-1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not tile-opt %s --tile-mbarrier-pipeline=persistent-blocks=2147483648 2>&1 | FileCheck %s --check-prefix=HUGE
// NEGATIVE: error: tile-mbarrier-pipeline: persistent-blocks must be from 0 (the chip's) to 2147483647, got -1
// HUGE: error: tile-mbarrier-pipeline: persistent-blocks must be from 0 (the chip's) to 2147483647, got 2147483648
module {
}
