/// WebVTT texts the tests share: what the phone writes, and one that uses every feature of the format.
enum WebVTTFixtures {
  /// A transcript as Stash writes it: a gap the app knows of, word timings, unconfirmed words.
  static let stashMemo = """
    WEBVTT

    NOTE stash missing-speech 00:01:00.000 00:01:42.500

    1
    00:00:00.000 --> 00:00:04.200
    So <00:00:00.400>the <00:00:00.650>path <00:00:01.100>goes <00:00:01.500>along <00:00:02.000>the <00:00:02.300>river.

    2
    00:00:04.200 --> 00:00:09.000
    Then we turned left at the <00:00:06.000>bridge,

    3
    00:01:42.500 --> 00:01:47.000
    where the old mill <c.unconfirmed>used to <00:01:45.000>be, I think</c>

    """

  /// A part file from a recording in progress, as the recovery issue describes it.
  static let stashPart = """
    WEBVTT

    NOTE stash part 00:01:00.000 00:02:00.000

    00:01:00.500 --> 00:01:03.000
    Second minute, first words.

    """

  /// Every block type, setting, tag and reference form the format has.
  static let kitchenSink = """
    WEBVTT Kitchen sink - all of it

    REGION
    id:fred width:40% lines:3 regionanchor:0%,100% viewportanchor:10%,90% scroll:up

    REGION
    id:bill width:40.5% lines:10 regionanchor:100%,100% viewportanchor:90%,90%

    STYLE
    ::cue {
      background-image: linear-gradient(to bottom, dimgray, lightgray);
      color: papayawhip;
    }

    NOTE a comment
    over two lines

    intro
    00:00.000 --> 00:02.000 region:fred align:left
    <v Fred>Hi, my name is Fred

    00:02.500 --> 00:04.300 region:bill align:right
    <v.loud Bill>Hi, I’m Bill</v>

    00:05.000 --> 00:06.000 vertical:rl line:-1,end position:10%,line-left size:35.5% align:start
    <i>Italic</i>, <b>bold</b>, <u>underline</u>, <c.a.b>classes</c>

    00:06.000 --> 00:07.000 line:50%,center position:90%,line-right align:end
    <ruby>漢<rt>かん</rt>字<rt>じ</rt></ruby> and <lang en-GB>colour</lang>

    NOTE between cues

    ref-test
    01:00:07.000 --> 01:00:09.000 vertical:lr line:0 size:100% position:50%,center
    Fish &amp; chips &lt;3 &gt; &nbsp;&copy; &#169; &#xA9;
    second line with <01:00:08.000>timed words

    """
}
