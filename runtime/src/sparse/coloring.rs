//! Column coloring: distance-1 coloring of the column intersection graph (two columns
//! are neighbours when some row has entries in both), greedy in a chosen vertex
//! order. Columns of one color can share one seed lane: no row sees two of them.
//!
//! The graph is never stored: a column's neighbours are read through the pattern and
//! its transpose, with marks against counting one twice. Memory stays O(nnz).

use faer::sparse::SymbolicSparseRowMatRef;

/// The order in which greedy coloring visits the columns.
///
/// Greedy coloring gives each column the smallest color none of its neighbours has;
/// the order decides how close to optimal that is. Smallest-last is usually best and
/// costs a little more (a bucket queue over the degrees).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ColoringOrder {
    /// Columns in index order.
    Natural,
    /// Columns by decreasing number of neighbours (Welsh–Powell).
    LargestFirst,
    /// The reverse of repeatedly removing a column of fewest remaining neighbours
    /// (Matula–Beck); optimal on many stencils.
    #[default]
    SmallestLast,
    /// Repeatedly the column with the most neighbours already ordered (Coleman–Moré),
    /// starting from one of largest degree.
    IncidenceDegree,
}

/// A column coloring: no two columns of one color have an entry in the same row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coloring {
    colors: Vec<usize>,
    count: usize,
}

impl Coloring {
    /// The color of each column, from 0.
    pub fn colors(&self) -> &[usize] {
        &self.colors
    }

    /// The number of colors: the number of seed directions a compressed Jacobian
    /// needs (instead of one per column).
    pub fn count(&self) -> usize {
        self.count
    }

    /// The columns of color `c`, in increasing order.
    pub fn columns_of(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        self.colors
            .iter()
            .enumerate()
            .filter(move |&(_, &k)| k == c)
            .map(|(j, _)| j)
    }
}

/// The pattern's transpose: for each column, the rows with an entry in it.
struct Transpose {
    col_ptr: Vec<usize>,
    row_idx: Vec<usize>,
}

impl Transpose {
    fn of(pattern: SymbolicSparseRowMatRef<'_, usize>) -> Self {
        let (nrows, ncols) = (pattern.nrows(), pattern.ncols());
        let mut col_ptr = vec![0usize; ncols + 1];
        for &j in pattern.col_idx() {
            col_ptr[j + 1] += 1;
        }
        for j in 0..ncols {
            col_ptr[j + 1] += col_ptr[j];
        }
        let mut next = col_ptr.clone();
        let mut row_idx = vec![0usize; pattern.col_idx().len()];
        for i in 0..nrows {
            for &j in pattern.col_idx_of_row_raw(i) {
                row_idx[next[j]] = i;
                next[j] += 1;
            }
        }
        Self { col_ptr, row_idx }
    }
}

/// Walks the distinct neighbours of columns, one column at a time.
struct Neighbours<'a> {
    pattern: SymbolicSparseRowMatRef<'a, usize>,
    t: Transpose,
    mark: Vec<usize>,
}

impl<'a> Neighbours<'a> {
    fn new(pattern: SymbolicSparseRowMatRef<'a, usize>) -> Self {
        Self {
            t: Transpose::of(pattern),
            mark: vec![usize::MAX; pattern.ncols()],
            pattern,
        }
    }

    /// Calls `f` once for each column other than `j` sharing a row with it.
    fn each(&mut self, j: usize, mut f: impl FnMut(usize)) {
        self.mark[j] = j;
        for &i in &self.t.row_idx[self.t.col_ptr[j]..self.t.col_ptr[j + 1]] {
            for &k in self.pattern.col_idx_of_row_raw(i) {
                if self.mark[k] != j {
                    self.mark[k] = j;
                    f(k);
                }
            }
        }
    }
}

/// Colors the columns of `pattern` greedily in `order`.
///
/// ```
/// use lifted::sparse::faer::sparse::SymbolicSparseRowMat;
/// use lifted::sparse::{ColoringOrder, color_columns};
///
/// // A tridiagonal 5 × 5 pattern: three colors.
/// let (mut row_ptr, mut col_idx) = (vec![0], vec![]);
/// for i in 0..5usize {
///     col_idx.extend(i.saturating_sub(1)..(i + 2).min(5));
///     row_ptr.push(col_idx.len());
/// }
/// let pattern = SymbolicSparseRowMat::new_checked(5, 5, row_ptr, None, col_idx);
/// let coloring = color_columns(pattern.as_ref(), ColoringOrder::SmallestLast);
/// assert_eq!(coloring.count(), 3);
/// ```
pub fn color_columns(
    pattern: SymbolicSparseRowMatRef<'_, usize>,
    order: ColoringOrder,
) -> Coloring {
    let n = pattern.ncols();
    let mut nb = Neighbours::new(pattern);
    let visit: Vec<usize> = match order {
        ColoringOrder::Natural => (0..n).collect(),
        ColoringOrder::LargestFirst => {
            let degree = degrees(&mut nb, n);
            let mut v: Vec<usize> = (0..n).collect();
            v.sort_by_key(|&j| core::cmp::Reverse(degree[j]));
            v
        }
        ColoringOrder::SmallestLast => smallest_last(&mut nb, n),
        ColoringOrder::IncidenceDegree => incidence_degree(&mut nb, n),
    };
    let mut colors = vec![usize::MAX; n];
    // `taken[c] == j`: a neighbour of column j has color c.
    let mut taken: Vec<usize> = Vec::new();
    let mut count = 0;
    for &j in &visit {
        nb.each(j, |k| {
            let c = colors[k];
            if c != usize::MAX {
                taken[c] = j;
            }
        });
        let c = (0..count).find(|&c| taken[c] != j).unwrap_or(count);
        if c == count {
            count += 1;
            taken.push(usize::MAX);
        }
        colors[j] = c;
    }
    Coloring { colors, count }
}

/// The number of neighbours of every column.
fn degrees(nb: &mut Neighbours<'_>, n: usize) -> Vec<usize> {
    (0..n)
        .map(|j| {
            let mut d = 0;
            nb.each(j, |_| d += 1);
            d
        })
        .collect()
}

/// Columns in buckets by a key (a degree): doubly linked lists, O(1) to move a column
/// to a neighbouring bucket.
struct Buckets {
    head: Vec<usize>,
    next: Vec<usize>,
    prev: Vec<usize>,
}

impl Buckets {
    const NONE: usize = usize::MAX;

    fn new(columns: usize, keys: usize) -> Self {
        Self {
            head: vec![Self::NONE; keys],
            next: vec![Self::NONE; columns],
            prev: vec![Self::NONE; columns],
        }
    }

    fn push(&mut self, key: usize, v: usize) {
        self.next[v] = self.head[key];
        self.prev[v] = Self::NONE;
        if self.head[key] != Self::NONE {
            self.prev[self.head[key]] = v;
        }
        self.head[key] = v;
    }

    fn unlink(&mut self, key: usize, v: usize) {
        if self.prev[v] != Self::NONE {
            self.next[self.prev[v]] = self.next[v];
        } else {
            self.head[key] = self.next[v];
        }
        if self.next[v] != Self::NONE {
            self.prev[self.next[v]] = self.prev[v];
        }
    }

    /// Moves `v` from bucket `from` to bucket `to`.
    fn shift(&mut self, v: usize, from: usize, to: usize) {
        self.unlink(from, v);
        self.push(to, v);
    }

    fn first(&self, key: usize) -> Option<usize> {
        Some(self.head[key]).filter(|&v| v != Self::NONE)
    }
}

/// The smallest-last order: columns removed one of fewest remaining neighbours at a
/// time (a bucket queue by degree), then visited in reverse.
fn smallest_last(nb: &mut Neighbours<'_>, n: usize) -> Vec<usize> {
    let mut degree = degrees(nb, n);
    let max_degree = degree.iter().copied().max().unwrap_or(0);
    let mut queue = Buckets::new(n, max_degree + 1);
    for (v, &d) in degree.iter().enumerate() {
        queue.push(d, v);
    }
    let mut removed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut low = 0;
    for _ in 0..n {
        let v = loop {
            match queue.first(low) {
                Some(v) => break v,
                None => low += 1,
            }
        };
        queue.unlink(low, v);
        removed[v] = true;
        order.push(v);
        nb.each(v, |u| {
            if !removed[u] {
                queue.shift(u, degree[u], degree[u] - 1);
                degree[u] -= 1;
            }
        });
        low = low.saturating_sub(1);
    }
    order.reverse();
    order
}

/// The incidence-degree order: next the column with the most neighbours ordered
/// before it (a bucket queue by that count); among equals the one pushed last, so the
/// first is a column of largest degree.
fn incidence_degree(nb: &mut Neighbours<'_>, n: usize) -> Vec<usize> {
    let degree = degrees(nb, n);
    let max_degree = degree.iter().copied().max().unwrap_or(0);
    let mut queue = Buckets::new(n, max_degree + 1);
    let mut by_degree: Vec<usize> = (0..n).collect();
    by_degree.sort_by_key(|&v| degree[v]);
    for &v in &by_degree {
        queue.push(0, v);
    }
    let mut incidence = vec![0usize; n];
    let mut ordered = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut high = 0;
    for _ in 0..n {
        let v = loop {
            match queue.first(high) {
                Some(v) => break v,
                None => high -= 1,
            }
        };
        queue.unlink(high, v);
        ordered[v] = true;
        order.push(v);
        nb.each(v, |u| {
            if !ordered[u] {
                queue.shift(u, incidence[u], incidence[u] + 1);
                incidence[u] += 1;
                high = high.max(incidence[u]);
            }
        });
    }
    order
}
