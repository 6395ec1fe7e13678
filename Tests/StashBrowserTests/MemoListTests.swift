import StashBrowser
import StashFormat
import Testing

/// The list the model holds: rows made from names until they are read, filled in a block at a
/// time, its totals kept as they come, and its order kept as the listing's.
@Suite struct MemoListTests {
  /// Pending rows made on demand, counting how many were made.
  final class Names: PendingRows, @unchecked Sendable {
    let bases: [String]
    let dates: [Double]
    var made = 0
    init(_ count: Int) {
      bases = (0..<count).map { "memo-" + String(100_000 + $0) }
      // Newest first.
      dates = (0..<count).map { 1_000_000 - Double($0) }
    }
    var count: Int { bases.count }
    func row(_ index: Int) -> MemoRow {
      made += 1
      var row = BrowserFixture.row(bases[index], at: dates[index], duration: nil)
      row.pending = true
      return row
    }
    func base(_ index: Int) -> String { bases[index] }
    func displayName(_ index: Int) -> String { row(index).displayName }
    func recordedAt(_ index: Int) -> Double { dates[index] }
    func basePrecedes(_ index: Int, _ other: Int) -> Bool {
      bases[index].utf8.lexicographicallyPrecedes(bases[other].utf8)
    }
    func index(ofBase base: String) -> Int? { bases.firstIndex(of: base) }
    var partsFolders: [String] { [] }
  }

  @Test func rowsAreMadeOnlyWhenAskedFor() {
    let names = Names(5_000)
    let list = MemoList(names)
    #expect(list.count == 5_000 && list.pendingCount == 5_000 && list.unknownLengths == 5_000)
    #expect(list.totalSeconds == 0 && names.made == 0)
    let row = list[4_321]
    #expect(row.base == "memo-104321" && row.pending && names.made == 1)
    #expect(list.position(ofBase: "memo-100007") == 7 && names.made == 1)
  }

  @Test func filledRowsCountAndTheirDatesReorderTheList() {
    let names = Names(3_000)
    var list = MemoList(names)
    let before = list
    // Read rows across two blocks, one of them a memo whose audio gives it a newer date.
    var filled: [(index: Int, row: MemoRow)] = []
    for index in [0, 1, 1_500, 2_999] {
      filled.append((index, BrowserFixture.row(names.bases[index], at: names.dates[index], duration: 10.25)))
    }
    filled.append((9, BrowserFixture.row(names.bases[9], at: 2_000_000, duration: nil)))
    list.fill(filled)
    #expect(before.pendingCount == 3_000, "a copy is not changed by filling the list")
    #expect(list.pendingCount == 2_995 && list.unknownLengths == 2_996 && list.totalSeconds == 41)
    #expect(list[0].base == names.bases[9] && !list[0].pending)
    #expect(list.position(ofBase: names.bases[9]) == 0 && list.listingIndex(at: 0) == 9)
    #expect(list.position(ofBase: names.bases[0]) == 1 && list.isPending(at: 1) == false)

    // The order is the listing's: newest first, ties by base in byte order.
    let rows = Array(list)
    let listed = rows.sorted { a, b in
      a.recordedAt != b.recordedAt
        ? a.recordedAt > b.recordedAt : Array(a.base.utf8).lexicographicallyPrecedes(b.base.utf8)
    }
    #expect(rows.map(\.base) == listed.map(\.base))
    #expect(list == MemoList(rows))
    #expect(list != before)

    // Filling a row again replaces it; the totals follow.
    list.fill([(1_500, BrowserFixture.row(names.bases[1_500], at: names.dates[1_500], duration: nil))])
    #expect(list.pendingCount == 2_995 && list.unknownLengths == 2_997 && list.totalSeconds == 30.75)
  }

  /// Rows read, sent as `.rowsRead`, leave the model as a listing with those rows filled in
  /// would (the way they came before): the same list, screen, selection and effects, with or
  /// without a filter, and when a date read moves a memo.
  @Test(arguments: ["", "walk"])
  func rowsReadDoWhatTheListFilledInDoes(filter: String) {
    let names = Names(3_000)
    var model = BrowserModel(folderPath: "/memos", width: 100, height: 30)
    _ = model.update(.resize(width: 100, height: 30))
    _ = model.update(.listed(MemoList(names), error: nil))
    if !filter.isEmpty {
      // The newest 40 said "walk"; the titles read add others.
      _ = model.setFilter(filter)
      let said = Set(names.bases.prefix(40))
      _ = model.update(.transcriptMatches(query: filter, generation: model.searchGeneration, bases: said))
      #expect(model.visible.count == 40)
    }
    _ = model.update(.key(.down))
    _ = model.update(.key(.down))
    var listed = model
    let selected = model.memos.listingIndex(at: model.visible[model.selection])
    var read: [(index: Int, row: MemoRow)] = []
    for index in [0, 1, 1_500, 2_999, selected] {
      read.append(
        (index, BrowserFixture.row(names.bases[index], title: "Walk \(index)", at: names.dates[index])))
    }
    read.append((9, BrowserFixture.row(names.bases[9], at: 2_000_000, duration: nil)))
    var list = model.memos
    list.fill(read)

    let effects = model.update(.rowsRead(ReadRows(read)))
    let expected = listed.update(.listed(list, error: nil))
    #expect(effects == expected && effects.contains(.loadDetail(base: names.bases[selected])))
    #expect(model == listed)
    #expect(BrowserView.render(model).plainText == BrowserView.render(listed).plainText)
    #expect(model.memos.pendingCount == 2_994)
  }

  /// The first screen is drawn from the names (issue 45 §3); the person scrolls before any memo is
  /// read, and the rows read (one of them with a problem), the other-files count and the rest
  /// arrive after: the selection, the memo under it and the rows on screen stay where they were,
  /// and only the marks, lengths and titles change.
  @Test func whatArrivesAfterTheFirstScreenMovesNothingUnderThePerson() {
    let names = Names(5_000)
    var model = BrowserModel(folderPath: "/memos", width: 100, height: 30)
    _ = model.update(.resize(width: 100, height: 30))
    _ = model.update(.listed(MemoList(names), error: nil))
    for _ in 0..<40 { _ = model.update(.key(.down)) }
    let (selection, top, selected) = (model.selection, model.listTop, model.selectedBase)
    #expect(top > 0 && selected == names.bases[40])
    let onScreen = { (model: BrowserModel) in
      model.visible[model.listTop..<(model.listTop + 20)].map { model.memos.base(at: $0) }
    }
    let shown = onScreen(model)
    let before = BrowserFixture.lines(BrowserView.render(model))
    #expect(before[0].contains("reading 5000…") && !before.joined().contains("!"), "\(before)")

    // The rows on screen first, a broken one among them, then the count, then the rest.
    var read: [(index: Int, row: MemoRow)] = []
    for index in 0..<100 {
      var row = BrowserFixture.row(names.bases[index], title: "Walk \(index)", at: names.dates[index])
      row.hasProblem = index == 38
      read.append((index, row))
    }
    _ = model.update(.rowsRead(ReadRows(Array(read[30..<80]))))
    _ = model.update(.otherFiles(3))
    _ = model.update(.rowsRead(ReadRows(Array(read[0..<30] + read[80...]))))
    #expect(model.selection == selection && model.listTop == top && model.selectedBase == selected)
    #expect(onScreen(model) == shown)
    let after = BrowserFixture.lines(BrowserView.render(model))
    #expect(after[0].contains("3 other files"), "\(after)")
    let broken = after.filter { $0.contains("Walk 38") }
    #expect(broken.count == 1 && broken[0].contains("T !"), "\(after)")
    #expect(after.filter { $0.contains("!") }.count == 1, "\(after)")
  }

  @Test func aModelOverALargeListShowsOnlyWhatItMakes() {
    let names = Names(100_000)
    var model = BrowserModel(folderPath: "/memos", width: 100, height: 30)
    _ = model.update(.resize(width: 100, height: 30))
    _ = model.update(.listed(MemoList(names), error: nil))
    let screen = BrowserFixture.lines(BrowserView.render(model))
    #expect(screen[0].contains("100000 memos") && screen[0].contains("reading 100000…"))
    #expect(names.made < 200, "rows made: \(names.made)")
    _ = model.update(.key(.end))
    #expect(model.selectedBase == names.bases[99_999])
    #expect(names.made < 400, "rows made: \(names.made)")
  }
}
